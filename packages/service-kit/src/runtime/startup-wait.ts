import pRetry from 'p-retry';
import { isTransientError } from '../transient-errors.js';

/**
 * Runs a starting service's first contact with a server it needs (`what`: "NATS"), again with backoff while that
 * server is not there yet (a refused connection, a name its network's DNS does not resolve yet, a timeout), for at
 * most `waitMs`. Containers and pods start in any order and a healthy-looking server may still be unreachable for a
 * moment; exiting at once would leave the service down until something restarts it. Any other error (a wrong
 * password, a missing permission) fails at once: waiting would not change it. (Postgres' first connection, the
 * migration's, has its own patience in db/migrate.ts.)
 */
export function untilReachable<T>(
  what: string,
  connect: () => Promise<T>,
  options: { waitMs: number; log: { warn(details: { err: unknown; attempt: number; retryInMs: number }, message: string): void } },
): Promise<T> {
  return pRetry(connect, {
    retries: Number.POSITIVE_INFINITY,
    maxRetryTime: options.waitMs,
    minTimeout: 250,
    maxTimeout: 2000,
    shouldRetry: ({ error, attemptNumber, retryDelay }) => {
      if (!isTransientError(error)) return false;
      options.log.warn({ err: error, attempt: attemptNumber, retryInMs: retryDelay }, `${what} is not reachable yet: retrying`);
      return true;
    },
  });
}
