import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { png, preparedForTests, startedForTests } from '@app/service-testing';
import type { UploadSource } from '../src/index.js';
import { failure } from './support/failure.js';
import { startSdkStack } from './support/sdk-stack.js';

const image = png(3, 2);

describe('media and products through the SDK', () => {
  const sdk = startedForTests(startSdkStack, { timeout: 120_000 });
  const api = preparedForTests(() => sdk.organization('Catalog'));

  it.each<[string, () => UploadSource]>([
    ['a Buffer', () => image],
    ['a Uint8Array', () => new Uint8Array(image)],
    ['a Blob', () => new Blob([image], { type: 'image/png' })],
    ['a Node stream', () => Readable.from([image.subarray(0, 10), image.subarray(10)])],
    ['a web ReadableStream', () => new Blob([image]).stream()],
  ])('when an image is uploaded from %s, then the stored file has its bytes, size and alt text', async (_kind, source) => {
    const { data, response } = await api.uploadMedia(source(), { filename: 'dot.png', altText: 'A dot' });

    expect(response.status).toBe(201);
    expect(data.data).toMatchObject({
      filename: 'dot.png',
      alt_text: 'A dot',
      mime_type: 'image/png',
      size: image.length,
      width: 3,
      height: 2,
    });
    const served = await fetch(data.data.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it('when the typed POST is given the multipart body, then it uploads too', async () => {
    const file = new File([image], 'typed.png', { type: 'image/png' });

    const { data } = await api.POST('/api/v1/media', { body: { file, alt_text: 'Typed' } });

    expect(data.data).toMatchObject({ filename: 'typed.png', alt_text: 'Typed', size: image.length });
  });

  it('when media is listed, read and deleted, then a read after the delete is a typed MEDIA_NOT_FOUND', async () => {
    const id = (await api.uploadMedia(image)).data.data.id;

    const list = await api.GET('/api/v1/media', { params: { query: { limit: 200 } } });
    expect(list.data.data.map((m) => m.id)).toContain(id);
    expect((await api.GET('/api/v1/media/{id}', { params: { path: { id } } })).data.data.filename).toBe('upload');
    expect((await api.DELETE('/api/v1/media/{id}', { params: { path: { id } } })).data.data).toMatchObject({ id, deleted: true });

    const gone = await failure(api.GET('/api/v1/media/{id}', { params: { path: { id } } }));
    expect(gone).toMatchObject({ status: 404, code: 'MEDIA_NOT_FOUND', message: 'Media file not found' });
  });

  it('when the bytes are not an image, then the upload is a typed 415', async () => {
    const error = await failure(api.uploadMedia(Buffer.from('plain text, not an image'), { contentType: 'image/png' }));

    expect(error).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('when a product is created, found, updated and deleted, then each answer is the typed record', async () => {
    const created = await api.POST('/api/v1/products', { body: { name: 'Blue Mug', price: 19.99, stock: 3, status: 'published' } });
    const id = created.data.data.id;
    expect(created.data.data).toMatchObject({ slug: 'blue-mug', price: 19.99, featured_image: null });

    const found = await api.GET('/api/v1/products', { params: { query: { search: 'blue', in_stock: true, min_price: 19.99 } } });
    expect(found.data.data.map((p) => p.id)).toEqual([id]);
    const repriced = await api.PATCH('/api/v1/products/{id}', { params: { path: { id } }, body: { price: 24.5, stock: null } });
    expect(repriced.data.data).toMatchObject({ price: 24.5, stock: null });
    await api.DELETE('/api/v1/products/{id}', { params: { path: { id } } });

    expect(await failure(api.GET('/api/v1/products/{id}', { params: { path: { id } } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('when a product gets a featured image, then the product and its images show it until the image is removed', async () => {
    const media = (await api.uploadMedia(image, { altText: 'Front' })).data.data;
    const id = (await api.POST('/api/v1/products', { body: { name: 'Red Mug', price: 9 } })).data.data.id;

    const added = await api.POST('/api/v1/products/{id}/images', {
      params: { path: { id } },
      body: { media_file_id: media.id, is_featured: true },
    });
    const imageId = added.data.data.id;
    const images = await api.GET('/api/v1/products/{id}/images', { params: { path: { id } } });
    expect(images.data.data.map((i) => i.id)).toEqual([imageId]);
    const patched = await api.PATCH('/api/v1/products/{id}/images/{imageId}', {
      params: { path: { id, imageId } },
      body: { alt_text: 'Mug, front' },
    });
    expect(patched.data.data).toMatchObject({ id: imageId, is_featured: true });
    const product = await api.GET('/api/v1/products/{id}', { params: { path: { id } } });
    expect(product.data.data.featured_image).toMatchObject({ id: media.id, url: media.url });
    await api.DELETE('/api/v1/products/{id}/images/{imageId}', { params: { path: { id, imageId } } });

    expect((await api.GET('/api/v1/products/{id}/images', { params: { path: { id } } })).data.data).toEqual([]);
    expect((await api.GET('/api/v1/products/{id}', { params: { path: { id } } })).data.data.featured_image).toBeNull();
  });

  it('when a product is read with its ETag, changed with it and again with the stale one, then getIfChanged and the 412 say so', async () => {
    const id = (await api.POST('/api/v1/products', { body: { name: 'Blue Mug', price: 9, stock: 3 } })).data.data.id;
    const path = { params: { path: { id } } };
    const { etag } = await api.GET('/api/v1/products/{id}', path);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(await api.getIfChanged('/api/v1/products/{id}', etag!, path)).toBeUndefined();

    const sold = await api.PATCH('/api/v1/products/{id}', { ...path, body: { stock: 2 }, headers: { 'If-Match': etag! } });
    const stale = await failure(api.PATCH('/api/v1/products/{id}', { ...path, body: { stock: 2 }, headers: { 'If-Match': etag! } }));

    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    const fresh = await api.getIfChanged('/api/v1/products/{id}', etag!, path);
    expect(fresh?.data.data.stock).toBe(2);
    expect(fresh?.etag).toBe(sold.etag);
  });
});
