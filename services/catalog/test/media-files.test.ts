import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client, pathOf, startCatalog, storedFiles } from './support/harness.js';
import { EventRecorder } from './support/events.js';
import { anonymousHeaders, JPEG_1X1, png, startedForTests } from '@app/service-testing';

const catalog = startedForTests(startCatalog);

describe('GET /media/{token}/{name}', () => {
  it('when the url of an upload is fetched without organization, then it serves the same bytes, cacheable for a day with a strong ETag', async () => {
    const client = new Client(catalog.running);
    const bytes = png(60, 40, { noise: true });
    const media = (await client.upload(bytes, 'served.png')).json().data;

    const response = await catalog.running.app.inject({ method: 'GET', url: pathOf(media.url), headers: anonymousHeaders() });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
  });

  it('when the same url is fetched twice, then the ETag is the same, and another upload of the same bytes has another', async () => {
    const client = new Client(catalog.running);
    const bytes = png(3, 3);
    const first = (await client.upload(bytes, 'same.png')).json().data;
    const second = (await client.upload(bytes, 'same.png')).json().data;
    const get = (url: string) => catalog.running.app.inject({ method: 'GET', url: pathOf(url), headers: anonymousHeaders() });

    const etag = (await get(first.url)).headers.etag;

    expect((await get(first.url)).headers.etag).toBe(etag);
    expect((await get(second.url)).headers.etag).not.toBe(etag);
  });

  it.each([
    ['its ETag', (etag: string) => etag],
    ['its ETag in a list', (etag: string) => `"other", ${etag}`],
    ['its ETag marked weak', (etag: string) => `W/${etag}`],
    ['*', () => '*'],
  ])('when If-None-Match carries %s, then 304 without a body, with the ETag and cache headers', async (_label, ifNoneMatch) => {
    const client = new Client(catalog.running);
    const media = (await client.upload(png(5, 5), 'cached.png')).json().data;
    const { etag } = (await catalog.running.app.inject({ method: 'GET', url: pathOf(media.url), headers: anonymousHeaders() })).headers;

    const response = await catalog.running.app.inject({
      method: 'GET',
      url: pathOf(media.url),
      headers: { ...anonymousHeaders(), 'if-none-match': ifNoneMatch(String(etag)) },
    });

    expect(response.statusCode).toBe(304);
    expect(response.rawPayload).toHaveLength(0);
    expect(response.headers.etag).toBe(etag);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });

  it("when a conditional GET carries fetch's Cache-Control: no-cache, then it is still a 304 (this is the origin)", async () => {
    const client = new Client(catalog.running);
    const media = (await client.upload(png(5, 5), 'revalidated.png')).json().data;
    const { etag } = (await catalog.running.app.inject({ method: 'GET', url: pathOf(media.url), headers: anonymousHeaders() })).headers;

    const response = await catalog.running.app.inject({
      method: 'GET',
      url: pathOf(media.url),
      headers: { ...anonymousHeaders(), 'if-none-match': String(etag), 'cache-control': 'no-cache', pragma: 'no-cache' },
    });

    expect(response.statusCode).toBe(304);
  });

  it('when If-None-Match carries another ETag, then 200 with the bytes', async () => {
    const client = new Client(catalog.running);
    const bytes = png(5, 5);
    const media = (await client.upload(bytes, 'changed.png')).json().data;

    const response = await catalog.running.app.inject({
      method: 'GET',
      url: pathOf(media.url),
      headers: { ...anonymousHeaders(), 'if-none-match': '"not-this-one"' },
    });

    expect(response.statusCode).toBe(200);
    expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
  });

  it('when a JPEG is fetched, then its content type is image/jpeg', async () => {
    const client = new Client(catalog.running);
    const media = (await client.upload(JPEG_1X1, 'j.jpg')).json().data;
    const response = await catalog.running.app.inject({ method: 'GET', url: pathOf(media.url), headers: anonymousHeaders() });
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(response.rawPayload, JPEG_1X1)).toBe(0);
  });

  it('when the upload had a long name, then its URL (a 105-character file name) serves it too', async () => {
    const client = new Client(catalog.running);
    const bytes = JPEG_1X1;
    const media = (await client.upload(bytes, `${'Summer holiday '.repeat(12)}.jpeg`)).json().data;
    expect(media.url.split('/').pop()).toHaveLength(104); // 100 slug characters and `.jpg`
    const response = await catalog.running.app.inject({ method: 'GET', url: pathOf(media.url), headers: anonymousHeaders() });
    expect(response.statusCode).toBe(200);
    expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
  });

  it.each([
    ['an unknown token', (path: string) => path.replace(/\/media\/[^/]+\//, `/media/${'A'.repeat(32)}/`)],
    ['another file name', (path: string) => path.replace(/[^/]+$/, 'other.png')],
    ['a malformed token', () => '/media/..%2F..%2Fetc/passwd'],
    ['no file name', (path: string) => path.replace(/\/[^/]+$/, '')],
  ])('when %s is asked for, then 404', async (_label, mangle) => {
    const client = new Client(catalog.running);
    const media = (await client.upload(png(1, 1), 'x.png')).json().data;
    const response = await catalog.running.app.inject({ method: 'GET', url: mangle(pathOf(media.url)), headers: anonymousHeaders() });
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /api/v1/media/{id}', () => {
  it('when the media file is the organization’s, then it is returned as uploaded', async () => {
    const client = new Client(catalog.running);
    const uploaded = (await client.upload(png(2, 3), 'g.png', { altText: 'alt' })).json().data;
    const response = await client.get(`/api/v1/media/${uploaded.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual(uploaded);
  });

  it.each([
    ['another organization’s id', 'other'],
    ['an unknown id', randomUUID()],
    ['a malformed id', 'not-a-uuid'],
  ])('when it is %s, then 404 Media file not found', async (_label, which) => {
    const owner = new Client(catalog.running);
    const media = await owner.uploadImage();
    const id = which === 'other' ? media.id : which;
    const response = await new Client(catalog.running).get(`/api/v1/media/${id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Media file not found', code: 'MEDIA_NOT_FOUND' });
  });
});

describe('GET /api/v1/media', () => {
  it('when an organization lists its media, then only its own are shown, newest first, with meta', async () => {
    const client = new Client(catalog.running);
    const first = await client.uploadImage('one.png');
    const second = await client.uploadImage('two.png');
    await new Client(catalog.running).uploadImage();

    const response = await client.get('/api/v1/media?limit=1');

    expect(response.json()).toEqual({
      data: [expect.objectContaining({ id: second.id })],
      meta: { total: 2, limit: 1, offset: 0, hasMore: true, next_cursor: expect.any(String) },
    });
    const next = (await client.get('/api/v1/media?limit=1&offset=1')).json();
    expect(next.data[0].id).toBe(first.id);
  });
});

describe('DELETE /api/v1/media/{id}', () => {
  it('when the media file is unused, then it is deleted, its bytes are removed and the URL stops serving', async () => {
    const events = new EventRecorder(catalog.running, ['catalog.media.deleted']);
    const client = new Client(catalog.running);
    const media = await client.uploadImage();
    const { etag } = (await catalog.running.app.inject({ url: pathOf(media.url), headers: anonymousHeaders() })).headers;
    const before = storedFiles(catalog.mediaDir);

    const response = await client.delete(`/api/v1/media/${media.id}`);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { id: media.id, deleted: true } });
    expect(storedFiles(catalog.mediaDir)).toHaveLength(before.length - 1);
    expect((await catalog.running.app.inject({ url: pathOf(media.url), headers: anonymousHeaders() })).statusCode).toBe(404);
    // A cache revalidating its copy learns of the deletion too, rather than a 304.
    const revalidated = await catalog.running.app.inject({
      url: pathOf(media.url),
      headers: { ...anonymousHeaders(), 'if-none-match': String(etag) },
    });
    expect(revalidated.statusCode).toBe(404);
    expect((await client.get(`/api/v1/media/${media.id}`)).statusCode).toBe(404);
    await events.waitFor((e) => e.data.id === media.id);
    events.close();
  });

  it('when the media file is a product image, then 409 and it stays', async () => {
    const client = new Client(catalog.running);
    const media = await client.uploadImage();
    const product = await client.product();
    await client.post(`/api/v1/products/${product.id}/images`, { media_file_id: media.id });

    const response = await client.delete(`/api/v1/media/${media.id}`);

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT' });
    expect((await catalog.running.app.inject({ url: pathOf(media.url), headers: anonymousHeaders() })).statusCode).toBe(200);
  });

  it('when the media file is a product’s featured image, then 409', async () => {
    const client = new Client(catalog.running);
    const media = await client.uploadImage();
    await client.product({ featured_image_id: media.id });
    expect((await client.delete(`/api/v1/media/${media.id}`)).statusCode).toBe(409);
  });

  it('when another organization deletes it, then 404 and it stays', async () => {
    const owner = new Client(catalog.running);
    const media = await owner.uploadImage();
    expect((await new Client(catalog.running).delete(`/api/v1/media/${media.id}`)).statusCode).toBe(404);
    expect((await owner.get(`/api/v1/media/${media.id}`)).statusCode).toBe(200);
  });
});
