/** The images the kit starts: the official ones unless the caller or the environment names others. */
const DEFAULT_IMAGES = {
  postgres: 'postgres:16-alpine',
  nats: 'nats:2.10-alpine',
} as const;

export type ImageKind = keyof typeof DEFAULT_IMAGES;

/** The variable that overrides an image (scripts/base-images.sh exports them for its local stand-ins). */
export const IMAGE_VARIABLES: Record<ImageKind, string> = { postgres: 'POSTGRES_IMAGE', nats: 'NATS_IMAGE' };

/** The image to start: the given one, else `POSTGRES_IMAGE` / `NATS_IMAGE`, else the official image. */
export function imageFor(kind: ImageKind, given?: string): string {
  return given || process.env[IMAGE_VARIABLES[kind]] || DEFAULT_IMAGES[kind];
}
