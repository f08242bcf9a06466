import { describe, expect, it } from 'vitest';
import { png, preparedForTests, startedForTests } from '@app/service-testing';
import { Client, startCatalog, storedFiles } from './support/harness.js';

const catalog = startedForTests(startCatalog);
const client = preparedForTests(async () => new Client(catalog.running));

/** `{"name":"caf<0xE9>","price":1}`: Latin-1 é, not UTF-8 (Node would have read U+FFFD). */
const LATIN1_BODY = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('","price":1}')]);

describe('POST /api/v1/products (text limits)', () => {
  it('when the body holds bytes that are not UTF-8, then 400 VALIDATION_ERROR and no product (it was stored with U+FFFD)', async () => {
    const fresh = new Client(catalog.running);
    const response = await catalog.running.app.inject({
      method: 'POST',
      url: '/api/v1/products',
      headers: { ...fresh.headers, 'content-type': 'application/json' },
      payload: LATIN1_BODY,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'body must be valid UTF-8' });
    expect((await fresh.get('/api/v1/products')).json().meta.total).toBe(0);
  });

  it.each([
    ['a lone surrogate', 'Mug \ud800', 'name must not contain lone surrogates (invalid Unicode)'],
    ['a bidi override', 'Mug \u202egpj.exe', 'name must not contain bidirectional control characters'],
    ['a bidi isolate', 'Mug \u2066x\u2069', 'name must not contain bidirectional control characters'],
  ])('when the name holds %s, then 400 naming name', async (_case, name, message) => {
    const response = await client.post('/api/v1/products', { name, price: 1 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
  });

  it('when the description (text) holds bidi controls, then 201 and it reads back exactly as sent', async () => {
    const description = 'كوب \u202bخزفي\u202c 350 ml';
    const created = await client.product({ description });
    expect(created.description).toBe(description);
    expect((await client.get(`/api/v1/products/${created.id}`)).json().data.description).toBe(description);
  });

  it('when the description holds a lone surrogate, then 400 naming description (it was stored as U+FFFD)', async () => {
    const response = await client.post('/api/v1/products', { name: 'Mug', price: 1, description: 'half \udc00' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('description must not contain lone surrogates (invalid Unicode)');
  });
});

describe('POST /api/v1/media (text limits)', () => {
  it('when the file name holds a bidi control, then 400 naming filename and nothing is stored', async () => {
    const fresh = new Client(catalog.running);
    const before = storedFiles(catalog.mediaDir).length;
    const response = await fresh.upload(png(2, 2), 'photo\u202egnp.exe', { type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'filename must not contain bidirectional control characters',
    });
    expect(storedFiles(catalog.mediaDir).length).toBe(before);
    expect((await fresh.get('/api/v1/media')).json().meta.total).toBe(0);
  });

  it('when alt_text holds bidi controls, then they are kept as sent', async () => {
    const altText = 'כוס \u2067red\u2069';
    const response = await client.upload(png(2, 2), 'mug.png', { type: 'image/png', altText });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.alt_text).toBe(altText);
  });
});
