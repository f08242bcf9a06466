import { IMAGE_VARIABLES } from './images.js';

const BASE_IMAGE_STAND_INS =
  'Where no image registry is reachable, build local stand-ins from Debian packages with ' +
  '`source scripts/container-engine.sh && source scripts/base-images.sh` (it exports POSTGRES_IMAGE and NATS_IMAGE)';

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** How to get a missing image: the stand-ins (or the variable) for Postgres and NATS, a build for anything else. */
function howToGetImage(name: string): string {
  const variable = (IMAGE_VARIABLES as Partial<Record<string, string>>)[name];
  return variable ? `${BASE_IMAGE_STAND_INS}; or set ${variable} to an image you have.` : 'Build or pull it first.';
}

/**
 * Runs `start` for the container `name` of `image`, turning a failure into one that says what is missing and how
 * to get it: the engine (no Docker API answers), the image (neither present nor pullable), or the container itself.
 */
export async function startExplained<T>(name: string, image: string, start: () => Promise<T>, howToGet = howToGetImage(name)): Promise<T> {
  const { getContainerRuntimeClient, ImageName } = await import('testcontainers');
  const client = await getContainerRuntimeClient().catch((error: unknown) => {
    throw new Error(
      `Cannot start the ${name} container (${image}): no container engine answers (${firstLine(error)}). ` +
        'Start Docker, or run `source scripts/container-engine.sh` to serve the Docker API with podman ' +
        '(it exports DOCKER_HOST; Debian packages podman and docker-compose).',
      { cause: error },
    );
  });
  try {
    return await start();
  } catch (error) {
    // Asked after the failure, so a present image points at the container, an absent one at the pull.
    const present = await client.image.exists(ImageName.fromString(image)).catch(() => false);
    if (!present) {
      throw new Error(
        `Cannot start the ${name} container: image ${image} is not on this machine and could not be pulled ` +
          `(${firstLine(error)}). ${howToGet}`,
        { cause: error },
      );
    }
    // The whole message: a service's start adds the last lines the container logged.
    throw new Error(`The ${name} container (${image}) did not start: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
