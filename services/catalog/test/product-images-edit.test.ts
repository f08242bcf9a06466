import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { Client, nth, startCatalog } from './support/harness.js';
import { arrangeGallery, type Image } from './support/gallery.js';

const catalog = startedForTests(startCatalog);

const arrange = (count: number) => arrangeGallery(catalog.running, count);

describe('PATCH /api/v1/products/{id}/images/{imageId}', () => {
  async function fourImages() {
    const arranged = await arrange(4);
    const attached: Image[] = [];
    for (const m of arranged.media) attached.push(await arranged.attach(m.id));
    const url = (index: number) => `${arranged.images}/${nth(attached, index).id}`;
    return { ...arranged, attached, url };
  }

  it.each([
    [0, 2, [1, 2, 0, 3]],
    [3, 0, [3, 0, 1, 2]],
    [1, 1, [0, 1, 2, 3]],
    [1, 99, [0, 2, 3, 1]],
  ])('when image %i moves to %i, then the others re-number densely', async (from, to, expected) => {
    const { client, url, order } = await fourImages();

    const response = await client.patch(url(from), { order_index: to });

    expect(response.statusCode).toBe(200);
    expect(response.json().data.order_index).toBe(Math.min(to, 3));
    expect(await order()).toEqual(expected.map((mediaIndex, position) => [mediaIndex, position]));
  });

  it('when an image is featured and then un-featured, then the product’s featured image follows', async () => {
    const { client, product, media, url, gallery } = await fourImages();

    await client.patch(url(1), { is_featured: true });
    await client.patch(url(2), { is_featured: true });
    expect((await gallery()).map((image) => image.is_featured)).toEqual([false, false, true, false]);
    expect((await client.get(`/api/v1/products/${product.id}`)).json().data.featured_image_id).toBe(nth(media, 2).id);

    await client.patch(url(2), { is_featured: false });
    expect((await gallery()).some((image) => image.is_featured)).toBe(false);
    expect((await client.get(`/api/v1/products/${product.id}`)).json().data.featured_image_id).toBeNull();
  });

  it('when alt_text is changed, then the media file carries it', async () => {
    const { client, media, url } = await fourImages();
    const response = await client.patch(url(0), { alt_text: 'Front view' });
    expect(response.json().data.media_file.alt_text).toBe('Front view');
    expect((await client.get(`/api/v1/media/${nth(media, 0).id}`)).json().data.alt_text).toBe('Front view');
  });

  it('when 4 moves run at once, then the positions stay 0..3, each once', async () => {
    const { client, url, gallery } = await fourImages();
    await Promise.all([
      client.patch(url(0), { order_index: 3 }),
      client.patch(url(1), { order_index: 0 }),
      client.patch(url(2), { order_index: 1 }),
      client.patch(url(3), { order_index: 2 }),
    ]);
    expect((await gallery()).map((image) => image.order_index)).toEqual([0, 1, 2, 3]);
  });

  it.each([
    ['an unknown image id', () => randomUUID()],
    ['a malformed image id', () => 'x'],
  ])('when it is %s, then 404', async (_label, id) => {
    const { client, images } = await fourImages();
    const response = await client.patch(`${images}/${id()}`, { order_index: 0 });
    expect(response.json()).toEqual({ error: 'Product image not found', code: 'NOT_FOUND' });
  });

  it('when the image belongs to another product, then 404', async () => {
    const { client, attached } = await fourImages();
    const other = await client.product();
    expect((await client.patch(`/api/v1/products/${other.id}/images/${nth(attached, 0).id}`, { is_featured: true })).statusCode).toBe(404);
  });
});

describe('DELETE /api/v1/products/{id}/images/{imageId}', () => {
  it('when an image is detached, then the later ones move up and the media file stays', async () => {
    const { client, media, images, attach, order } = await arrange(3);
    const attached: Image[] = [];
    for (const m of media) attached.push(await attach(m.id));

    const response = await client.delete(`${images}/${nth(attached, 0).id}`);

    expect(response.json()).toEqual({ data: { id: nth(attached, 0).id, deleted: true } });
    expect(await order()).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect((await client.get(`/api/v1/media/${nth(media, 0).id}`)).statusCode).toBe(200);
  });

  it('when the featured image is detached, then the product’s featured_image_id is cleared', async () => {
    const { client, product, media, images, attach } = await arrange(2);
    await attach(nth(media, 0).id);
    const featured = await attach(nth(media, 1).id, { is_featured: true });

    await client.delete(`${images}/${featured.id}`);

    expect((await client.get(`/api/v1/products/${product.id}`)).json().data).toMatchObject({
      featured_image_id: null,
      featured_image: null,
    });
  });

  it('when a detached image is deleted again, then 404', async () => {
    const { client, media, images, attach } = await arrange(1);
    const image = await attach(nth(media, 0).id);
    await client.delete(`${images}/${image.id}`);
    expect((await client.delete(`${images}/${image.id}`)).statusCode).toBe(404);
  });

  it('when the media file of a detached image is deleted, then it is allowed', async () => {
    const { client, media, images, attach } = await arrange(1);
    const image = await attach(nth(media, 0).id);
    await client.delete(`${images}/${image.id}`);
    expect((await client.delete(`/api/v1/media/${nth(media, 0).id}`)).statusCode).toBe(200);
  });
});

describe('GET /api/v1/products/{id}/images', () => {
  it('when the product has no images, then the list is empty', async () => {
    const { client, images } = await arrange(0);
    expect((await client.get(images)).json()).toEqual({ data: [] });
  });

  it.each(['not-a-uuid', randomUUID()])('when the product id is %s, then 404', async (id) => {
    const response = await new Client(catalog.running).get(`/api/v1/products/${id}/images`);
    expect(response.statusCode).toBe(404);
  });
});
