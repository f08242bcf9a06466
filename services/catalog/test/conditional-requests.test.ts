import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConditionalRequests, recordRequests } from '@app/service-testing';
import { arrangeGallery } from './support/gallery.js';
import { Client, nth, startCatalog } from './support/harness.js';

let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const requests = (client: Client, url: string) => recordRequests(catalog.running.app, client.headers, url);
const etagOf = (reply: { headers: Record<string, unknown> }) => String(reply.headers.etag);

describeConditionalRequests([
  {
    name: 'a product',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const client = new Client(catalog.running);
      const calls = requests(client, `/api/v1/products/${(await client.product()).id}`);
      return { ...calls, patch: (headers, n) => calls.patch(headers, { name: `Mug ${n}`, price: 10 + n }), state: calls.data };
    },
  },
  {
    name: 'a product image',
    has: { patch: true, remove: true },
    async arrange() {
      const { client, media, images, attach, gallery } = await arrangeGallery(catalog.running, 2);
      await attach(nth(media, 1).id);
      const image = await attach(nth(media, 0).id);
      const calls = requests(client, `${images}/${image.id}`);
      const state = async () => (await gallery()).find((each) => each.id === image.id);
      // The alt text it shows is its media file's: a change of the image that writes no row of its own.
      return { remove: calls.remove, patch: (headers, n) => calls.patch(headers, { alt_text: `Side ${n}` }), state };
    },
  },
  {
    name: 'a media file',
    has: { get: true, change: true, remove: true },
    async arrange() {
      const { client, media, images, attach } = await arrangeGallery(catalog.running, 1);
      const calls = requests(client, `/api/v1/media/${nth(media, 0).id}`);
      let n = 0;
      return {
        get: calls.get,
        remove: calls.remove,
        state: calls.data,
        // Its alt text is written through a product's image of it; detached again, the file can be deleted.
        async change() {
          const image = await attach(nth(media, 0).id);
          n += 1;
          expect((await client.patch(`${images}/${image.id}`, { alt_text: `Mug, side ${n}` })).statusCode).toBe(200);
          expect((await client.delete(`${images}/${image.id}`)).statusCode).toBe(200);
        },
      };
    },
  },
]);

describe('ETags of records that show another record', () => {
  it("when the featured media file's alt text changes through another product, then the product's ETag changes", async () => {
    const { client, media, product, attach } = await arrangeGallery(catalog.running, 1);
    await attach(nth(media, 0).id, { is_featured: true });
    const featured = requests(client, `/api/v1/products/${product.id}`);
    const before = etagOf(await featured.get({}));

    const other = await client.product();
    const image = (await client.post(`/api/v1/products/${other.id}/images`, { media_file_id: nth(media, 0).id })).json().data;
    await client.patch(`/api/v1/products/${other.id}/images/${String(image.id)}`, { alt_text: 'Blue mug, from above' });

    const after = await featured.get({ 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body).data.featured_image.alt_text).toBe('Blue mug, from above');
    const stale = await featured.patch({ 'if-match': before }, { price: 12 });
    expect([stale.status, JSON.parse(stale.body).code]).toEqual([412, 'PRECONDITION_FAILED']);
  });

  it('when another image is featured, then the image that was featured gets a new ETag', async () => {
    const { client, media, images, attach } = await arrangeGallery(catalog.running, 2);
    const first = await attach(nth(media, 0).id, { is_featured: true });
    const second = await attach(nth(media, 1).id);
    const tagged = etagOf(await client.patch(`${images}/${first.id}`, { alt_text: 'Front' }));

    await client.patch(`${images}/${second.id}`, { is_featured: true });

    const stale = await requests(client, `${images}/${first.id}`).patch({ 'if-match': tagged }, { alt_text: 'Back' });
    expect([stale.status, JSON.parse(stale.body).code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await client.get(images)).json().data[0]).toMatchObject({
      id: first.id,
      is_featured: false,
      media_file: { alt_text: 'Front' },
    });
  });

  it('when an image moves, then the images it passes get new ETags (their places changed)', async () => {
    const { client, media, images, attach } = await arrangeGallery(catalog.running, 2);
    const first = await attach(nth(media, 0).id);
    const second = await attach(nth(media, 1).id);
    const tagged = etagOf(await client.patch(`${images}/${first.id}`, { alt_text: 'Front' }));

    await client.patch(`${images}/${second.id}`, { order_index: 0 });

    const stale = await requests(client, `${images}/${first.id}`).patch({ 'if-match': tagged }, { alt_text: 'Back' });
    expect([stale.status, JSON.parse(stale.body).code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await client.get(images)).json().data[1]).toMatchObject({ id: first.id, order_index: 1, media_file: { alt_text: 'Front' } });
  });

  it('when two products change the alt text of one media file at once, each with its image ETag, then exactly one applies', async () => {
    const client = new Client(catalog.running);
    const file = await client.uploadImage('shared.png');
    const tagged = [];
    for (const product of [await client.product(), await client.product()]) {
      const url = `/api/v1/products/${product.id}/images`;
      const image = (await client.post(url, { media_file_id: file.id })).json().data;
      const patched = await client.patch(`${url}/${String(image.id)}`, { order_index: 0 });
      tagged.push({ url: `${url}/${String(image.id)}`, etag: etagOf(patched) });
    }
    const replies = await Promise.all(
      tagged.map(({ url, etag }, n) => requests(client, url).patch({ 'if-match': etag }, { alt_text: `Shared ${n}` })),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
    const winner = replies.findIndex((reply) => reply.status === 200);
    expect((await client.get(`/api/v1/media/${file.id}`)).json().data.alt_text).toBe(`Shared ${winner}`);
  });
});
