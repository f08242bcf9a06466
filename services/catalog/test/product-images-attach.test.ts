import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { Client, nth, startCatalog } from './support/harness.js';
import { EventRecorder } from './support/events.js';
import { arrangeGallery } from './support/gallery.js';

const catalog = startedForTests(startCatalog);

const arrange = (count: number) => arrangeGallery(catalog.running, count);

describe('POST /api/v1/products/{id}/images', () => {
  it('when a media file is attached, then 201 with the product image and its media file', async () => {
    const { client, product, media, images } = await arrange(1);

    const response = await client.post(images, { media_file_id: media[0]?.id });

    expect(response.statusCode).toBe(201);
    expect(response.json().data).toEqual({
      id: expect.any(String),
      product_id: product.id,
      media_file_id: media[0]?.id,
      order_index: 0,
      is_featured: false,
      media_file: { id: media[0]?.id, url: media[0]?.url, alt_text: '' },
      created_at: expect.stringMatching(/Z$/),
    });
  });

  it('when order_index is omitted, then each image goes to the next position', async () => {
    const { media, attach, order } = await arrange(3);
    for (const m of media) await attach(m.id);
    expect(await order()).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('when order_index points inside the gallery, then the image is inserted there and the rest move down', async () => {
    const { media, attach, order } = await arrange(3);
    await attach(nth(media, 0).id);
    await attach(nth(media, 1).id);
    const inserted = await attach(nth(media, 2).id, { order_index: 0 });
    expect(inserted.order_index).toBe(0);
    expect(await order()).toEqual([
      [2, 0],
      [0, 1],
      [1, 2],
    ]);
  });

  it('when order_index is past the end, then the image is appended (positions stay dense)', async () => {
    const { media, attach } = await arrange(1);
    expect((await attach(nth(media, 0).id, { order_index: 50 })).order_index).toBe(0);
  });

  it('when is_featured is true, then it becomes the product’s featured image and the previous one is un-featured', async () => {
    const { client, product, media, attach, gallery } = await arrange(2);
    await attach(nth(media, 0).id, { is_featured: true });

    const second = await attach(nth(media, 1).id, { is_featured: true });

    expect(second.is_featured).toBe(true);
    expect((await gallery()).map((image) => image.is_featured)).toEqual([false, true]);
    const current = (await client.get(`/api/v1/products/${product.id}`)).json().data;
    expect(current.featured_image_id).toBe(nth(media, 1).id);
    expect(current.featured_image).toEqual({ id: nth(media, 1).id, url: nth(media, 1).url, alt_text: '' });
  });

  it('when 10 media files are attached at once, then they get the 10 positions 0..9, each once', async () => {
    const { client, media, images, gallery } = await arrange(10);

    const responses = await Promise.all(media.map((m) => client.post(images, { media_file_id: m.id })));

    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect((await gallery()).map((image) => image.order_index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('when 8 attaches at once all ask for position 0 and to be featured, then positions stay unique and one image is featured', async () => {
    const { client, product, media, images, gallery } = await arrange(8);

    await Promise.all(media.map((m) => client.post(images, { media_file_id: m.id, order_index: 0, is_featured: true })));

    const all = await gallery();
    expect(all.map((image) => image.order_index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(all.filter((image) => image.is_featured)).toHaveLength(1);
    const featured = (await client.get(`/api/v1/products/${product.id}`)).json().data.featured_image_id;
    expect(all.find((image) => image.is_featured)?.media_file_id).toBe(featured);
  });

  it('when media files are deleted while being attached, then each pair ends one way or the other, never 500', async () => {
    const { client, media, images, gallery } = await arrange(8);

    const outcomes = await Promise.all(
      media.map(async (m) => {
        const [attached, deleted] = await Promise.all([
          client.post(images, { media_file_id: m.id }),
          client.delete(`/api/v1/media/${m.id}`),
        ]);
        return `${attached.statusCode}/${deleted.statusCode}`;
      }),
    );

    for (const outcome of outcomes) expect(['201/409', '404/200']).toContain(outcome);
    expect((await gallery()).length).toBe(outcomes.filter((o) => o === '201/409').length);
  });

  it('when the media file is already an image of the product, then 409', async () => {
    const { client, media, images, attach } = await arrange(1);
    await attach(nth(media, 0).id);
    expect((await client.post(images, { media_file_id: nth(media, 0).id })).statusCode).toBe(409);
  });

  it.each([
    ['an unknown media id', () => randomUUID()],
    ['a malformed media id', () => 'not-a-uuid'],
    ['another organization’s media file', async () => (await new Client(catalog.running).uploadImage()).id],
  ])('when it is %s, then 404 Media file not found', async (_label, mediaId) => {
    const { client, images, gallery } = await arrange(0);
    const response = await client.post(images, { media_file_id: await mediaId() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Media file not found', code: 'MEDIA_NOT_FOUND' });
    expect(await gallery()).toEqual([]);
  });

  it('when the product is another organization’s, then 404 Product not found', async () => {
    const { product } = await arrange(0);
    const stranger = new Client(catalog.running);
    const media = await stranger.uploadImage();
    const response = await stranger.post(`/api/v1/products/${product.id}/images`, { media_file_id: media.id });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Product not found', code: 'NOT_FOUND' });
    expect((await stranger.get(`/api/v1/products/${product.id}/images`)).statusCode).toBe(404);
  });

  it.each([
    [{}, 'media_file_id is required'],
    [{ media_file_id: 5 }, 'media_file_id must be a string'],
    [{ media_file_id: randomUUID(), order_index: -1 }, 'order_index must not be negative'],
    [{ media_file_id: randomUUID(), order_index: 1.5 }, 'order_index must be an integer'],
    [{ media_file_id: randomUUID(), is_featured: 'yes' }, 'is_featured must be true or false'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const { client, images } = await arrange(0);
    const response = await client.post(images, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
  });

  it('when an image is attached, then catalog.product.updated is published', async () => {
    const events = new EventRecorder(catalog.running, ['catalog.product.updated']);
    const { client, product, media, attach } = await arrange(1);
    await attach(nth(media, 0).id, { is_featured: true });
    const [event] = await events.waitFor((e) => e.organization_id === client.organizationId);
    events.close();
    // The record carries the gallery change as GET shows it: the featured image, with its URL.
    const shown = (await client.get(`/api/v1/products/${product.id}`)).json().data;
    expect(shown.featured_image).toMatchObject({ id: nth(media, 0).id });
    expect(event?.data).toMatchObject({ id: product.id, featured_image_id: nth(media, 0).id, record: shown });
  });
});
