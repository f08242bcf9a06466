/**
 * JetStream drops a second message with the same Nats-Msg-Id (the event id) published within this window: a relay
 * that crashed between publishing and marking its rows re-publishes them as duplicates JetStream ignores.
 */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/** How much a service's stream keeps (NATS_STREAM_MAX_AGE_HOURS, NATS_STREAM_MAX_BYTES); past either, the oldest go. */
export interface StreamLimits {
  maxAgeMs: number;
  maxBytes: number;
}

const NANOS_PER_MS = 1_000_000;

/** The stream configuration fields of the limits and the duplicate window (JetStream counts durations in ns). */
export function streamLimitsConfig(limits: StreamLimits): { max_age: number; max_bytes: number; duplicate_window: number } {
  return { max_age: limits.maxAgeMs * NANOS_PER_MS, max_bytes: limits.maxBytes, duplicate_window: DUPLICATE_WINDOW_MS * NANOS_PER_MS };
}
