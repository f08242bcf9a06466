import { DrainingConnectionError, InvalidArgumentError } from '@nats-io/nats-core';
import { isJetStreamApiError } from '../nats/jetstream-errors.js';
import { isTransientError } from '../transient-errors.js';

/** JetStream's "message size exceeds maximum allowed" (the stream's `max_msg_size`). */
const MESSAGE_TOO_LARGE = 10054;

/**
 * Why a row's publish failed:
 * - `too_large`: the broker can never take it (over the server's `max_payload`, refused by the client before sending
 *   — the only argument of a publish that differs between rows is its payload — or over the stream's message size);
 * - `outage`: the broker did not answer or is not connected; nothing is wrong with the row;
 * - `refused`: the broker answered no for this message; the row is retried a few times, then set aside.
 */
export function publishFailureKind(error: unknown): 'too_large' | 'outage' | 'refused' {
  if (error instanceof InvalidArgumentError || isJetStreamApiError(error, MESSAGE_TOO_LARGE)) return 'too_large';
  return isTransientError(error) || error instanceof DrainingConnectionError ? 'outage' : 'refused';
}
