import { setTimeout as sleep } from 'node:timers/promises';
import { assertSameRequest, keyInProgress } from './first-response.js';
import type { FirstResponse, IdempotencyStore, KeyedRequest, KeyRecord, Reservation } from './idempotency.store.js';

/** How long a duplicate waits for the first request with its key to be answered, and how often it looks. */
export interface WaitPolicy {
  maxMs: number;
  firstPauseMs: number;
  maxPauseMs: number;
}

/** Long enough for any create of the API (its upstream calls time out after 2 s); a client waits no longer. */
const DEFAULT_WAIT: WaitPolicy = { maxMs: 10_000, firstPauseMs: 10, maxPauseMs: 200 };

export type Claim = { reservation: Reservation } | { first: KeyRecord & { response: FirstResponse } };

/**
 * Takes the key for this request, or finds the response it must replay. The database decides who is first
 * (INSERT … ON CONFLICT on the key), so of concurrent duplicates exactly one runs; the others wait for its
 * response (polling with backoff, bounded by `wait.maxMs`, then a retryable 409 CONFLICT) and replay it. When it
 * fails on the server's side it lets the key go and one of the waiters takes it. A duplicate whose body
 * differs is refused at once.
 */
export async function claimKey(store: IdempotencyStore, request: KeyedRequest, wait: WaitPolicy = DEFAULT_WAIT): Promise<Claim> {
  const deadline = Date.now() + wait.maxMs;
  for (let pause = wait.firstPauseMs; ; pause = Math.min(pause * 2, wait.maxPauseMs)) {
    const reservation = await store.reserve(request);
    if (reservation) return { reservation };
    const record = await store.find(request);
    if (record?.response) return { first: { ...record, response: record.response } };
    // Still being answered: another route or body (when both bodies are known by now) will not become a replay by waiting.
    const comparable =
      record !== null && (record.target !== request.target || (record.requestHash !== null && request.requestHash !== null));
    if (comparable) assertSameRequest(record, request.target, request.requestHash);
    if (Date.now() + pause > deadline) throw keyInProgress();
    await sleep(pause);
  }
}
