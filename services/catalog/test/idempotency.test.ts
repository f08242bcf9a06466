import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  describeIdempotentCreates,
  listedCount,
  organizationHeaders,
  png,
  postWithKey,
  startedForTests,
  type IdempotentCaller,
} from '@app/service-testing';
import { Client, startCatalog, storedFiles } from './support/harness.js';

/** An upload as a fresh FormData each time: clients (and undici) pick a new multipart boundary per request. */
function uploadForm(bytes: Buffer, filename: string, altText: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), filename);
  form.append('alt_text', altText);
  return form;
}

describe('Idempotency-Key on the catalog service', () => {
  const catalog = startedForTests(startCatalog);

  const app = () => catalog.running.app;

  function callerOf(
    headers: Record<string, string>,
    url: string,
    bodies: Record<'same' | 'other', () => unknown>,
    listUrl = url,
  ): IdempotentCaller {
    return {
      create: (key, body = 'same') => postWithKey(app(), url, headers, key, bodies[body]()),
      count: () => listedCount(app(), listUrl, headers),
    };
  }

  describeIdempotentCreates([
    {
      name: 'POST /api/v1/products',
      arrange: async () =>
        callerOf(organizationHeaders(), '/api/v1/products', {
          same: () => ({ name: 'Mug', price: 12.5 }),
          other: () => ({ name: 'Cup', price: 9 }),
        }),
    },
    {
      name: 'POST /api/v1/products/{id}/images',
      async arrange() {
        const client = new Client(catalog.running);
        const [product, first, second] = [await client.product(), await client.uploadImage('a.png'), await client.uploadImage('b.png')];
        const url = `/api/v1/products/${product.id}/images`;
        return callerOf(client.headers, url, { same: () => ({ media_file_id: first.id }), other: () => ({ media_file_id: second.id }) });
      },
    },
    {
      name: 'POST /api/v1/categories',
      arrange: async () =>
        callerOf(organizationHeaders(), '/api/v1/categories', {
          same: () => ({ name: 'Mugs' }),
          other: () => ({ name: 'Cups' }),
        }),
    },
    {
      name: 'POST /api/v1/media (multipart)',
      arrange: async () =>
        callerOf(organizationHeaders(), '/api/v1/media', {
          same: () => uploadForm(png(2, 2), 'logo.png', 'Logo'),
          other: () => uploadForm(png(3, 3), 'logo.png', 'Logo'),
        }),
    },
  ]);

  describe('POST /api/v1/media with an Idempotency-Key', () => {
    const upload = (headers: Record<string, string>, key: string, form: FormData) =>
      postWithKey(app(), '/api/v1/media', headers, key, form);

    it('when an upload is replayed, then its file is stored once', async () => {
      const headers = organizationHeaders();
      const key = `key-${randomUUID()}`;
      const before = storedFiles(catalog.mediaDir).length;
      const first = await upload(headers, key, uploadForm(png(4, 4), 'photo.png', 'A photo'));
      const replays = await Promise.all([1, 2, 3].map(() => upload(headers, key, uploadForm(png(4, 4), 'photo.png', 'A photo'))));
      expect(first.status).toBe(201);
      expect(replays.map((reply) => reply.headers['idempotent-replayed'])).toEqual(['true', 'true', 'true']);
      expect(storedFiles(catalog.mediaDir).length).toBe(before + 1);
    });

    it.each([
      ['another file name', uploadForm(png(5, 5), 'other.png', 'Same')],
      ['another alt_text', uploadForm(png(5, 5), 'same.png', 'Other')],
    ])('when the same key comes with the same bytes but %s, then it is a 409 IDEMPOTENCY_KEY_REUSED', async (_case, form) => {
      const headers = organizationHeaders();
      const key = `key-${randomUUID()}`;
      expect((await upload(headers, key, uploadForm(png(5, 5), 'same.png', 'Same'))).status).toBe(201);
      const reused = await upload(headers, key, form);
      expect(reused.status).toBe(409);
      expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await listedCount(app(), '/api/v1/media', headers)).toBe(1);
    });

    it('when the fields come in another order, then it is the same upload and a replay', async () => {
      const headers = organizationHeaders();
      const key = `key-${randomUUID()}`;
      await upload(headers, key, uploadForm(png(6, 6), 'order.png', 'Ordered'));
      const reordered = new FormData();
      reordered.append('alt_text', 'Ordered');
      reordered.append('file', new Blob([new Uint8Array(png(6, 6))], { type: 'application/octet-stream' }), 'order.png');
      const replay = await upload(headers, key, reordered);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    });
  });
});
