import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ServiceApp } from '@app/service-kit';

/**
 * API.md "Keys": a publishable key's requests are limited per key and client IP together, so one visitor of a shop
 * cannot spend the whole shop's budget (RATE_LIMIT_MAX per key still applies on top). Counted in the rate limiter's
 * store, Redis when shared, so N gateways share it; a Redis outage lets requests through, as the global limit does.
 */
export class PublishableLimit {
  private readonly limiter: ReturnType<ServiceApp['createRateLimit']>;

  constructor(app: ServiceApp, options: { max: number; windowMs: number }) {
    this.limiter = app.createRateLimit({
      max: options.max,
      timeWindow: options.windowMs,
      skipOnError: true,
      keyGenerator: (request) => `publishable:${request.apiKey?.apiKeyId ?? ''}:${request.ip}`,
    });
  }

  /** Counts the request; throws 429 RATE_LIMITED (Retry-After: the seconds left of the window) beyond the limit. */
  async count(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const status = await this.limiter(request);
    if (status.isAllowed || !status.isExceeded) return;
    const seconds = Math.max(1, status.ttlInSeconds);
    void reply.header('retry-after', String(seconds));
    throw new AppError('RATE_LIMITED', `Rate limit exceeded, retry in ${seconds} seconds`);
  }
}
