import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, pathOf, startCatalog, storedFiles } from './support/harness.js';
import { anonymousHeaders, png } from '@app/service-testing';
import { gif } from './support/declared-sizes.js';

const MAX_BYTES = 1024 * 1024;
let catalog: Awaited<ReturnType<typeof startCatalog>>;
let base: string;

beforeAll(async () => {
  catalog = await startCatalog({ MEDIA_MAX_BYTES: String(MAX_BYTES) });
  base = await catalog.running.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => catalog.stop());

function form(bytes: Buffer, name: string, type = 'image/png'): FormData {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return body;
}

/** Real sockets: the upload arrives in many chunks, as it does behind the gateway. */
describe('POST /api/v1/media over HTTP', () => {
  it('when a large image under the limit is streamed in, then the URL serves exactly its bytes', async () => {
    const client = new Client(catalog.running);
    const bytes = png(500, 500, { noise: true });
    expect(bytes.length).toBeGreaterThan(700_000);

    const response = await fetch(`${base}/api/v1/media`, { method: 'POST', headers: client.headers, body: form(bytes, 'large.png') });

    expect(response.status).toBe(201);
    const media = ((await response.json()) as { data: { url: string; size: number; width: number } }).data;
    expect(media).toMatchObject({ size: bytes.length, width: 500 });
    const served = await fetch(`${base}${pathOf(media.url)}`, { headers: anonymousHeaders() });
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), bytes)).toBe(0);
  });

  it('when a 3 MB upload passes the 1 MB limit, then 413 and nothing is left on disk', async () => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);

    const response = await fetch(`${base}/api/v1/media`, {
      method: 'POST',
      headers: client.headers,
      body: form(png(1000, 1000, { noise: true }), 'huge.png'),
    });

    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
  });

  it('when a 900 KB GIF of 30000 small frames ends with a 65535×65535 frame, then 413 and nothing is left on disk', async () => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);
    const bytes = gif(10, 10, [
      ...Array<{ width: number; height: number }>(30_000).fill({ width: 10, height: 10 }),
      { width: 65535, height: 65535 },
    ]);
    expect(bytes.length).toBeGreaterThan(900_000);

    const response = await fetch(`${base}/api/v1/media`, {
      method: 'POST',
      headers: client.headers,
      body: form(bytes, 'anim.gif', 'image/gif'),
    });

    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe('Image is 65535×65535 pixels; at most 50000000 pixels are accepted');
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
  });

  it('when the same GIF ends with a 10×10 frame instead, then its frames walked across the chunks are all accepted', async () => {
    const client = new Client(catalog.running);
    const bytes = gif(10, 10, Array<{ width: number; height: number }>(30_001).fill({ width: 10, height: 10 }));

    const response = await fetch(`${base}/api/v1/media`, {
      method: 'POST',
      headers: client.headers,
      body: form(bytes, 'anim.gif', 'image/gif'),
    });

    expect(response.status).toBe(201);
    expect(((await response.json()) as { data: { size: number } }).data.size).toBe(bytes.length);
  });
});
