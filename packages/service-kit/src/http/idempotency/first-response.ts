import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { KeyRecord } from './idempotency.store.js';

/** Refusals that are about the caller or the moment, not about the request: a retry may be answered otherwise. */
const NOT_DECIDED_BY_THE_REQUEST = new Set([401, 403, 408, 429]);

/**
 * Whether a response becomes the key's first response: a success, or a refusal the request itself decided
 * (400, 404, 409, 413…), which the same request would get again. Not a 5xx or 503 (the client retries with the
 * same key and the request runs again), not a refusal of the caller (401, 429), and not a 4xx answered to a
 * client that is gone (the error handler's "client closed the connection": the connection's fault, not the body's).
 */
export function isStorable(statusCode: number, request: FastifyRequest): boolean {
  if (statusCode >= 200 && statusCode < 300) return true;
  if (statusCode < 400 || statusCode >= 500 || NOT_DECIDED_BY_THE_REQUEST.has(statusCode)) return false;
  return request.raw.socket?.destroyed !== true;
}

/** 409 IDEMPOTENCY_KEY_REUSED unless `record` was made by this same request (route, parameters and body). */
export function assertSameRequest(record: Pick<KeyRecord, 'target' | 'requestHash'>, target: string, requestHash: string | null): void {
  if (record.target !== target) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request');
  }
  if (record.requestHash !== requestHash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body');
  }
}

/** The answer to a duplicate that waited in vain for the first request with its key: retrying it is safe. */
export function keyInProgress(): AppError {
  return new AppError('CONFLICT', 'Another request with this Idempotency-Key is in progress; retry it');
}
