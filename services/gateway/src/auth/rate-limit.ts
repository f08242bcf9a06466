import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { ServiceApp } from '@app/service-kit';

const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Shared store of every gateway replica; without it each replica counts in its own memory. */
  redis?: Redis;
  /** Prefix of the store's keys in Redis. */
  redisPrefix: string;
}

/**
 * Per-key rate limit (per IP for requests without a key), answered with 429 RATE_LIMITED and Retry-After.
 * Runs at preHandler, after authentication, so the key is known. With a Redis store, N gateways share one
 * budget. If Redis fails at runtime the request is let through (skipOnError): the limit is a fairness guard, and
 * keys are still verified against Postgres, so a Redis outage should not take the whole API down with it.
 */
export async function registerRateLimit(app: ServiceApp, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.max,
    timeWindow: options.windowMs,
    ...(options.redis ? { redis: options.redis, nameSpace: options.redisPrefix, skipOnError: true } : {}),
    keyGenerator: (request) => request.apiKey?.apiKeyId ?? request.ip,
    allowList: (request) => UNLIMITED.has(request.routeOptions.url ?? ''),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      error: `Rate limit exceeded, retry in ${context.after}`,
      message: `Rate limit exceeded, retry in ${context.after}`,
    }),
  });
}
