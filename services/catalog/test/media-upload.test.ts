import { describe, expect, it } from 'vitest';
import { Client, PUBLIC_BASE_URL, startCatalog, storedFiles } from './support/harness.js';
import { EventRecorder } from './support/events.js';
import { GIF_1X1, JPEG_1X1, WEBP_1X1, png, pngHeaderClaiming, startedForTests } from '@app/service-testing';

const MAX_BYTES = 256 * 1024;

/** A form of `fields` in order: `file` and `image` carry a 1×1 PNG named by the value, any other field the value itself. */
function formOf(...fields: [name: string, value: string][]): FormData {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (name === 'file' || name === 'image') form.append(name, new Blob([new Uint8Array(png(1, 1))]), value);
    else form.append(name, value);
  }
  return form;
}

/** A multipart body built byte by byte: FormData and fetch would rewrite a NUL or a non-UTF-8 byte in the filename. */
function rawUpload(filename: Buffer, bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'raw-boundary-7d1f';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
    filename,
    Buffer.from('"\r\nContent-Type: image/png\r\n\r\n'),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const catalog = startedForTests(() => startCatalog({ MEDIA_MAX_BYTES: String(MAX_BYTES) }));

describe('POST /api/v1/media', () => {
  it.each([
    ['a PNG', png(3, 2), 'photo.png', 'image/png', 3, 2, 'photo.png'],
    ['a JPEG', JPEG_1X1, 'Holiday Snap.JPG', 'image/jpeg', 1, 1, 'holiday-snap.jpg'],
    ['a WebP', WEBP_1X1, 'tiny.webp', 'image/webp', 1, 1, 'tiny.webp'],
    ['a GIF', GIF_1X1, 'dot.gif', 'image/gif', 1, 1, 'dot.gif'],
  ])('when %s is uploaded, then 201 with its type, size and dimensions', async (_label, bytes, name, mime, width, height, publicName) => {
    const client = new Client(catalog.running);

    const response = await client.upload(bytes, name, { altText: 'A picture' });

    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data).toEqual({
      id: expect.any(String),
      url: expect.stringMatching(new RegExp(`^${PUBLIC_BASE_URL}/media/[A-Za-z0-9_-]{32}/${publicName.replace('.', '\\.')}$`)),
      alt_text: 'A picture',
      filename: name,
      mime_type: mime,
      size: bytes.length,
      width,
      height,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('when the image bytes arrive under a misleading name and type, then the bytes decide', async () => {
    const client = new Client(catalog.running);

    const response = await client.upload(JPEG_1X1, 'really.png', { type: 'image/png' });

    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      mime_type: 'image/jpeg',
      filename: 'really.png',
      url: expect.stringMatching(/\/really\.jpg$/),
    });
  });

  it('when alt_text comes before the file, then it is kept too', async () => {
    const client = new Client(catalog.running);
    const response = await client.upload(png(1, 1), 'a.png', { altText: '  first  ', altTextFirst: true });
    expect(response.json().data.alt_text).toBe('first');
  });

  it('when no alt_text is sent, then alt_text is an empty string (a string, as the spec types it)', async () => {
    const client = new Client(catalog.running);
    const response = await client.upload(png(1, 1), 'a.png');
    expect(response.json().data.alt_text).toBe('');
  });

  it('when a text file named .png is uploaded, then 415 and nothing is stored', async () => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);

    const response = await client.upload(Buffer.from('just some text, not an image\n'.repeat(10)), 'fake.png', { type: 'image/png' });

    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'File must be a JPEG, PNG, WebP, GIF or AVIF image', code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
  });

  it.each([
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'), 'x.svg'],
    ['a PDF', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'), 'x.pdf'],
    ['an empty file', Buffer.alloc(0), 'empty.png'],
    [
      'a PNG signature with a broken header',
      Buffer.concat([png(1, 1).subarray(0, 8), Buffer.from('garbage garbage garbage')]),
      'broken.png',
    ],
    ['a GIF that stops after its signature', Buffer.from('GIF89a'), 'short.gif'],
    [
      'a WebP with a VP8 header and no data',
      Buffer.concat([Buffer.from('RIFF'), Buffer.from([8, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
      'short.webp',
    ],
    ['a PNG that says it is 0 × 0', png(0, 0), 'empty-canvas.png'],
    ['a PNG that says it is 4294967295 pixels wide', pngHeaderClaiming(0xffffffff, 1), 'huge.png'],
  ])('when %s is uploaded, then 415', async (_label, bytes, name) => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);
    const response = await client.upload(bytes, name);
    expect(response.statusCode).toBe(415);
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
  });

  it.each([
    ['a NUL (a.png\\0.html)', Buffer.from('a.png\u0000.html', 'utf8'), 'NUL'],
    ['a right-to-left override (\\u202Egnp.exe)', Buffer.from('\u202Egnp.exe', 'utf8'), 'bidirectional'],
    ['a first-strong isolate (\\u2068)', Buffer.from('photo\u2068.png', 'utf8'), 'bidirectional'],
    ['bytes that are not UTF-8 (caf\\xe9.png)', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x70, 0x6e, 0x67]), 'UTF-8'],
  ])('when the filename has %s, then 400 naming filename and nothing is stored', async (_label, filename, word) => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);
    const { payload, headers } = rawUpload(filename, png(1, 1));

    const response = await catalog.running.app.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: { ...client.headers, ...headers },
      payload,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringContaining(word),
      details: [{ path: 'filename', message: expect.stringContaining(word) }],
    });
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
    expect((await client.get('/api/v1/media')).json().meta.total).toBe(0);
  });

  it('when the filename is UTF-8 with accents and a tab, then it is kept as sent, less the tab', async () => {
    const client = new Client(catalog.running);
    const { payload, headers } = rawUpload(Buffer.from('Crème\tbrûlée.png', 'utf8'), png(1, 1));

    const response = await catalog.running.app.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: { ...client.headers, ...headers },
      payload,
    });

    expect(response.statusCode).toBe(201);
    expect(response.json().data.filename).toBe('Crèmebrûlée.png');
  });

  it('when the upload is over the size limit, then 413 and nothing is left on disk', async () => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);
    const big = png(320, 320, { noise: true });
    expect(big.length).toBeGreaterThan(MAX_BYTES);

    const response = await client.upload(big, 'big.png');

    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
  });

  it('when the upload is exactly at the limit, then it is accepted', async () => {
    const client = new Client(catalog.running);
    const image = png(150, 150, { noise: true });
    // Pad with a trailing chunk-less tail so the size is exactly the limit (PNG readers stop at IEND).
    const exact = Buffer.concat([image, Buffer.alloc(MAX_BYTES - image.length)]);

    const response = await client.upload(exact, 'exact.png');

    expect(response.statusCode).toBe(201);
    expect(response.json().data.size).toBe(MAX_BYTES);
  });

  it.each([
    ['no file', () => formOf(), 400],
    ['the file under another field', () => formOf(['image', 'a.png']), 400],
    ['two files', () => formOf(['file', 'a.png'], ['file', 'b.png']), 400],
    ['an alt_text with a NUL character', () => formOf(['alt_text', 'a\u0000b'], ['file', 'a.png']), 400],
    ['an alt_text over 1000 characters', () => formOf(['file', 'a.png'], ['alt_text', 'x'.repeat(1001)]), 400],
  ])('when the form has %s, then %i and nothing is stored', async (_label, form, status) => {
    const client = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir);
    const response = await catalog.running.app.inject({ method: 'POST', url: '/api/v1/media', headers: client.headers, payload: form() });
    expect(response.statusCode).toBe(status);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(storedFiles(catalog.mediaDir)).toEqual(before);
  });

  it.each([
    ['JSON', { 'content-type': 'application/json' }, '{"file":"x"}', 415],
    ['multipart without a boundary', { 'content-type': 'multipart/form-data' }, 'whatever', 400],
    [
      'a truncated multipart body',
      { 'content-type': 'multipart/form-data; boundary=XYZ' },
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
      400,
    ],
    ['plain text', { 'content-type': 'text/plain' }, 'hello', 415],
  ])('when the body is %s, then %s', async (_label, headers, payload, status) => {
    const client = new Client(catalog.running);
    const response = await catalog.running.app.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: { ...client.headers, ...headers },
      payload,
    });
    expect(response.statusCode).toBe(status);
  });

  it('when an image is uploaded, then catalog.media.created is published once', async () => {
    const events = new EventRecorder(catalog.running, ['catalog.media.created']);
    const client = new Client(catalog.running);

    const media = (await client.upload(png(4, 5), 'e.png')).json().data;

    const [event] = await events.waitFor((e) => e.organization_id === client.organizationId);
    events.close();
    expect(event).toMatchObject({
      type: 'catalog.media.created',
      data: { id: media.id, mime_type: 'image/png', size: media.size, width: 4, height: 5, record: media },
    });
  });
});
