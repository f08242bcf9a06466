import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ServiceApp } from '@app/service-kit';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per client IP (`request.ip`, so behind TRUST_PROXY the client's own): after `max` in a
 * minute, every further attempt from that IP that carries a key or an admin token is refused with 429 before any
 * lookup, so guessing keys costs the database nothing (but a key that authenticated recently: authenticate.ts).
 * Counted in the rate limiter's store (Redis when shared).
 */
export class AuthFailures {
  private readonly limiter: ReturnType<ServiceApp['createRateLimit']>;

  constructor(app: ServiceApp, max: number) {
    this.limiter = app.createRateLimit({ max, timeWindow: WINDOW_MS, keyGenerator: (request) => `auth-failures:${request.ip}` });
  }

  /** Throws 429 RATE_LIMITED (Retry-After: the seconds left of the window) when the IP has used up its failures. */
  async refuseIfBlocked(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const status = await this.limiter(request, { increment: false });
    if (status.isAllowed || status.remaining > 0) return;
    const seconds = Math.max(1, status.ttlInSeconds);
    void reply.header('retry-after', String(seconds));
    throw new AppError('RATE_LIMITED', `Too many failed authentication attempts, retry in ${seconds} seconds`);
  }

  async record(request: FastifyRequest): Promise<void> {
    await this.limiter(request);
  }
}
