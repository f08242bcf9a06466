import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseConfigSchema } from '@app/service-kit';

/** `media-data/` at the repository root (git-ignored), the same from src/ and dist/. */
const DEFAULT_MEDIA_DIR = fileURLToPath(new URL('../../../media-data', import.meta.url));

export const configSchema = baseConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3003),
  /** Root folder of the local-disk media storage. */
  MEDIA_DIR: z.string().min(1).default(DEFAULT_MEDIA_DIR),
  /** Largest accepted upload in bytes (default 10 MB). */
  MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  /**
   * Most pixels (width × height, as the file declares it) of an accepted image and of each of its frames
   * (default 50 million): a small file can declare a canvas that takes gigabytes to decode.
   */
  MEDIA_MAX_PIXELS: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(50_000_000),
  /** The gateway's public address: media URLs are built from it. */
  PUBLIC_BASE_URL: z
    .url()
    .default('http://127.0.0.1:3000')
    .transform((url) => url.replace(/\/+$/, '')),
});
export type Config = z.infer<typeof configSchema>;
