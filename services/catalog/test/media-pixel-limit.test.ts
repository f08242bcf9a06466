import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png, pngHeaderClaiming } from '@app/service-testing';
import { Client, startCatalog, storedFiles } from './support/harness.js';
import {
  avif,
  gif,
  jpeg,
  jpegWithAppendedImage,
  jpegWithLaterFrame,
  pngZlibBomb,
  webpExtended,
  webpLossless,
  webpLossy,
} from './support/declared-sizes.js';

let catalog: Awaited<ReturnType<typeof startCatalog>>;
/** A second catalog with a pixel limit small enough to test both sides of it with small files. */
let lowLimit: Awaited<ReturnType<typeof startCatalog>>;
const LOW_LIMIT = 10_000;

beforeAll(async () => {
  [catalog, lowLimit] = await Promise.all([startCatalog(), startCatalog({ MEDIA_MAX_PIXELS: String(LOW_LIMIT) })]);
});
afterAll(() => Promise.all([catalog.stop(), lowLimit.stop()]));

/** Uploads `bytes` and checks that nothing was recorded or left on disk. */
async function uploadRefused(running: typeof catalog, bytes: Buffer, name: string) {
  const client = new Client(running.running);
  const before = storedFiles(running.mediaDir);
  const response = await client.upload(bytes, name);
  expect(storedFiles(running.mediaDir)).toEqual(before);
  expect((await client.get('/api/v1/media')).json().meta.total).toBe(0);
  return response;
}

describe('POST /api/v1/media (MEDIA_MAX_PIXELS, default 50,000,000)', () => {
  it('when a 45-byte PNG declares 65535×65535, then 413 with the size in the message and nothing is stored', async () => {
    const bytes = pngHeaderClaiming(65535, 65535);
    expect(bytes.length).toBeLessThan(70);

    const response = await uploadRefused(catalog, bytes, 'bomb.png');

    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: 'Image is 65535×65535 pixels; at most 50000000 pixels are accepted',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('when a PNG’s IDAT is a zlib bomb (70 KB inflating to 70 MB at 10000×6990), then 413 from its declared size', async () => {
    const bytes = pngZlibBomb(10000, 6990);
    expect(bytes.length).toBeLessThan(256 * 1024);

    const response = await uploadRefused(catalog, bytes, 'zlib-bomb.png');

    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('Image is 10000×6990 pixels; at most 50000000 pixels are accepted');
  });

  it.each([
    ['a GIF with a 65535×65535 logical screen', gif(65535, 65535, [{ width: 1, height: 1 }])],
    [
      'a GIF with a 1×1 screen whose last of 50 frames is 65535×65535',
      gif(1, 1, [...Array(49).fill({ width: 1, height: 1 }), { width: 65535, height: 65535 }]),
    ],
    [
      'a GIF whose 1×1 frame sits at 60000,60000 (decoders enlarge the canvas to it)',
      gif(1, 1, [{ left: 60000, top: 60000, width: 1, height: 1 }]),
    ],
    ['a progressive JPEG (SOF2) of 65535×65535', jpeg(65535, 65535, 0xc2)],
    ['a baseline JPEG (SOF0) of 65535×65535', jpeg(65535, 65535, 0xc0)],
    ['a lossless JPEG (SOF3) of 65535×65535', jpeg(65535, 65535, 0xc3)],
    ['a 1×1 JPEG with a 65535×65535 frame header after its scan', jpegWithLaterFrame(65535, 65535)],
    ['a 1×1 JPEG with a 65535×65535 image appended after its EOI', jpegWithAppendedImage(65535, 65535)],
    ['a lossy WebP (VP8) of 16383×16383', webpLossy(16383, 16383)],
    ['a lossless WebP (VP8L) of 16384×16384', webpLossless(16384, 16384)],
    ['an extended WebP (VP8X) with a 65535×65535 canvas', webpExtended(65535, 65535)],
    ['an animated WebP with a 16384×16384 frame (ANMF)', webpExtended(16384, 16384, [{ width: 16384, height: 16384 }])],
    ['an AVIF whose primary item is 65535×65535 (ispe)', avif([[65535, 65535]])],
    [
      'an AVIF whose second ispe (a tile or thumbnail) is 65535×65535',
      avif([
        [1, 1],
        [65535, 65535],
      ]),
    ],
    ['an AVIF with its meta box after the media data', avif([[65535, 65535]], { metaLast: true })],
  ])('when %s is uploaded, then 413 and nothing is stored', async (_label, bytes) => {
    const response = await uploadRefused(catalog, bytes, 'big.img');

    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      error: expect.stringMatching(/^Image is \d+×\d+ pixels; at most 50000000/),
    });
  });
});

describe('POST /api/v1/media (MEDIA_MAX_PIXELS=10000)', () => {
  it.each([
    ['a PNG of 100×100', png(100, 100), 100, 100],
    [
      'a GIF of 100×100 with a full frame and a 50×50 frame at 50,50',
      gif(100, 100, [
        { width: 100, height: 100 },
        { left: 50, top: 50, width: 50, height: 50 },
      ]),
      100,
      100,
    ],
    ['a JPEG of 100×100', jpeg(100, 100), 100, 100],
    ['a lossy WebP of 100×100', webpLossy(100, 100), 100, 100],
    ['a lossless WebP of 100×100', webpLossless(100, 100), 100, 100],
    ['an animated WebP of 100×100 with a 100×100 frame', webpExtended(100, 100, [{ width: 100, height: 100 }]), 100, 100],
    [
      'an AVIF of 100×100 with a 50×50 thumbnail',
      avif([
        [100, 100],
        [50, 50],
      ]),
      100,
      100,
    ],
  ])('when %s (at the limit) is uploaded, then 201', async (_label, bytes, width, height) => {
    const response = await new Client(lowLimit.running).upload(bytes, 'fits.img');

    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ width, height, size: bytes.length });
  });

  it.each([
    ['a PNG of 100×101', png(100, 101), '100×101'],
    ['a GIF of 100×100 whose frame at 1,0 reaches 101×100', gif(100, 100, [{ left: 1, width: 100, height: 100 }]), '101×100'],
    ['a JPEG of 101×100', jpeg(101, 100), '101×100'],
    ['a lossy WebP of 100×101', webpLossy(100, 101), '100×101'],
    [
      'an AVIF of 100×100 with a 101×100 second item',
      avif([
        [100, 100],
        [101, 100],
      ]),
      '101×100',
    ],
  ])('when %s (one row or column over) is uploaded, then 413 naming its size', async (_label, bytes, size) => {
    const response = await uploadRefused(lowLimit, bytes, 'over.img');

    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: `Image is ${size} pixels; at most ${LOW_LIMIT} pixels are accepted`,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});
