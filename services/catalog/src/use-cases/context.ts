import { AppError, notFound, type ServiceContext } from '@app/service-kit';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { MediaStorage } from '../db/media-storage.js';

/** What the catalog's use cases work with: the kit's context (pool, bus, relay, clock, log), Prisma for CRUD, and media storage. */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
  storage: MediaStorage;
  /** The gateway's public address; media URLs start with it. */
  publicBaseUrl: string;
  maxUploadBytes: number;
  /** Most pixels of an uploaded image and of each of its frames (MEDIA_MAX_PIXELS). */
  maxUploadPixels: number;
}

export const productNotFound = (): AppError => notFound('Product');
export const imageNotFound = (): AppError => notFound('Product image');
export const mediaNotFound = (): AppError => new AppError('MEDIA_NOT_FOUND', 'Media file not found');
export const variantNotFound = (): AppError => notFound('Variant');
export const reservationNotFound = (): AppError => notFound('Reservation');

/**
 * Runs a change of the category tree in one transaction (with its outbox rows), then lets the relay publish at once.
 * Waits are generous: the organization's tree changes queue on one lock.
 */
export async function categoryWrite<T>(ctx: UseCaseContext, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const result = await ctx.prisma.$transaction(work, { maxWait: 10_000, timeout: 15_000 });
  ctx.relay.wake();
  return result;
}
