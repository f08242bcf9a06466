import rateLimit from '@fastify/rate-limit';
import type { ServiceApp } from '@app/service-kit';

const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Per-key rate limit (per IP for requests without a key), answered with 429 RATE_LIMITED and Retry-After.
 * Runs at preHandler, after authentication, so the key is known. The store is in memory: with several
 * gateway replicas each enforces its own share (a Redis store is the drop-in for a shared limit).
 */
export async function registerRateLimit(app: ServiceApp, options: { max: number; windowMs: number }): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.max,
    timeWindow: options.windowMs,
    keyGenerator: (request) => request.apiKey?.apiKeyId ?? request.ip,
    allowList: (request) => UNLIMITED.has(request.url.split('?')[0] ?? ''),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      error: `Rate limit exceeded, retry in ${context.after}`,
      message: `Rate limit exceeded, retry in ${context.after}`,
    }),
  });
}
