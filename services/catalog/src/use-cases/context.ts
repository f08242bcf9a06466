import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound, type Queryable } from '@app/service-kit';
import type { Db } from '../db/client.js';
import type { MediaStorage } from '../storage/media-storage.js';

/** What the catalog's use cases work with, built once at boot. */
export interface CatalogDeps {
  prisma: Db;
  /** The pool under Prisma, for the product list (a hot read through pg directly). */
  pool: Queryable;
  storage: MediaStorage;
  /** Woken after a commit so the outbox's events leave at once. */
  relay: { wake(): void };
  log: FastifyBaseLogger;
  /** The gateway's public address; media URLs start with it. */
  publicBaseUrl: string;
  maxUploadBytes: number;
}

/** Who is asking: the organization stamped by the gateway and the request id (the events' correlation id). */
export interface Caller {
  organizationId: string;
  requestId: string;
}

export function eventContext(caller: Caller): { organizationId: string; correlationId: string } {
  return { organizationId: caller.organizationId, correlationId: caller.requestId };
}

export const productNotFound = (): AppError => notFound('Product');
export const imageNotFound = (): AppError => notFound('Product image');
export const mediaNotFound = (): AppError => new AppError('MEDIA_NOT_FOUND', 'Media file not found');
