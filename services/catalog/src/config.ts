import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseConfigSchema, gatewayPortVariable } from '@app/service-kit';

/** `media-data/` at the repository root (git-ignored), the same from src/ and dist/. */
const DEFAULT_MEDIA_DIR = fileURLToPath(new URL('../../../media-data', import.meta.url));

export const configSchema = baseConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3003),
  MEDIA_DIR: z.string().min(1).default(DEFAULT_MEDIA_DIR).meta({
    description: 'folder of uploaded files (local-disk storage)',
    defaultText: '`<repo>/media-data`',
  }),
  MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * 1024)
    .default(10 * 1024 * 1024)
    .meta({
      description: 'largest accepted upload in bytes (10 MB) → 413 `PAYLOAD_TOO_LARGE`',
      whenToChange: "with the gateway's `MAX_UPLOAD_BYTES`, which must leave room for it",
    }),
  MEDIA_MAX_PIXELS: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(50_000_000).meta({
    description:
      "most pixels (width × height as the file declares it) of an upload's canvas and of each frame or item (PNG IHDR and fcTL, every JPEG SOFn, WebP VP8/VP8L/VP8X and ANMF, GIF screen and every frame, AVIF every `ispe`), read from the bytes as they stream in → 413 `PAYLOAD_TOO_LARGE` before anything is stored",
    whenToChange: 'to accept larger images, knowing that a small file can declare a canvas that takes gigabytes to decode',
  }),
  PUBLIC_BASE_URL: z
    .url()
    .default('http://127.0.0.1:3000')
    .transform((url) => url.replace(/\/+$/, ''))
    .meta({
      description: "the gateway's public address: media URLs are built from it",
      defaultText: "`http://127.0.0.1:3000` (`npm start`: the gateway's own port; compose: from `GATEWAY_PORT`)",
    }),
  GATEWAY_PORT: gatewayPortVariable,
});
export type Config = z.infer<typeof configSchema>;
