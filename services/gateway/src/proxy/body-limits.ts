import type { FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';

/**
 * Refuses a request whose declared body is over the limit before it is proxied. A service that answers
 * 413 before reading an oversized body makes the proxied connection fail mid-upload (the client would see
 * a 503), and the gateway should not stream what will be refused anyway. Uploads (multipart) have their
 * own, larger limit; the service still enforces the exact one.
 */
export function bodyLimitHook(limits: { maxBodyBytes: number; maxUploadBytes: number }) {
  return async (request: FastifyRequest): Promise<void> => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared === 0) return;
    const upload = (request.headers['content-type'] ?? '').startsWith('multipart/');
    const limit = upload ? limits.maxUploadBytes : limits.maxBodyBytes;
    if (declared > limit) throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`);
  };
}
