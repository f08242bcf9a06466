import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * The Redis of the shared rate limit, connected before the gateway serves: unreachable at boot, the gateway
 * refuses to start (a limit silently per replica would be N times the one configured). At runtime a command
 * fails at once while Redis is away (no offline queue, one short timeout) and the limiter lets the request through.
 */
export async function connectRateLimitRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 500,
  });
  let connected = false;
  let down = false;
  redis.on('error', (error: Error) => {
    if (!connected || down) return; // at boot the failure is thrown; later, ioredis retries often: one line per outage

    down = true;
    log.warn({ err: error }, 'rate-limit Redis unavailable: requests are not rate limited until it is back');
  });
  redis.on('ready', () => {
    if (down) log.info('rate-limit Redis back');
    down = false;
  });
  try {
    await redis.connect();
    connected = true;
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis is not reachable at RATE_LIMIT_REDIS_URL (${redacted(url)}): ${(error as Error).message}`, { cause: error });
  }
  return redis;
}

function redacted(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]+@/, '//$1:***@');
}
