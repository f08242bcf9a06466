import type { RunningService } from '@app/service-testing';
import type { Config } from '../../src/config.js';
import { Client } from './harness.js';

export interface Image {
  id: string;
  media_file_id: string;
  order_index: number;
  is_featured: boolean;
}

/** A product of a fresh organization with `count` uploaded media files (not attached yet), and gallery helpers. */
export async function arrangeGallery(running: RunningService<Config>, count: number) {
  const client = new Client(running);
  const product = await client.product();
  const media: { id: string; url: string }[] = [];
  for (let i = 0; i < count; i += 1) media.push(await client.uploadImage(`m${i}.png`));
  const images = `/api/v1/products/${product.id}/images`;
  const attach = async (mediaId: string, extra: Record<string, unknown> = {}): Promise<Image> => {
    const response = await client.post(images, { media_file_id: mediaId, ...extra });
    if (response.statusCode !== 201) throw new Error(`attach failed: ${response.statusCode} ${response.body}`);
    return response.json().data;
  };
  const gallery = async (): Promise<Image[]> => (await client.get(images)).json().data;
  /** [media index, position] per image, in gallery order. */
  const order = async () => (await gallery()).map((image) => [media.findIndex((m) => m.id === image.media_file_id), image.order_index]);
  return { client, product, media, images, attach, gallery, order };
}
