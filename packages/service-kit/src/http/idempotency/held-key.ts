import type { FastifyBaseLogger } from 'fastify';
import { LEASE_MS, type IdempotencyStore, type Reservation } from './idempotency.store.js';

/** A request is not worth waiting for beyond this: its key's reservation is no longer renewed and lapses. */
const MAX_HOLD_MS = 10 * 60_000;

/**
 * A reservation held by a request while its handler runs. The lease is renewed every third of LEASE_MS, so a
 * slow request (a long upload) keeps its key while a crashed process's keys lapse within LEASE_MS; a request
 * that never finishes stops renewing after MAX_HOLD_MS.
 */
export class HeldKey {
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly reservation: Reservation,
    store: IdempotencyStore,
    log: FastifyBaseLogger,
  ) {
    const since = Date.now();
    this.timer = setInterval(() => {
      if (Date.now() - since > MAX_HOLD_MS) return this.stop();
      store.renew(reservation).catch((error: unknown) => log.warn({ err: error }, 'idempotency key reservation not renewed'));
    }, LEASE_MS / 3);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
