/**
 * JetStream drops a second message with the same Nats-Msg-Id (the event id) published within this window: a relay
 * that crashed between publishing and marking its rows re-publishes them as duplicates JetStream ignores.
 */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/** How much a service's stream keeps (NATS_STREAM_MAX_AGE_HOURS, NATS_STREAM_MAX_BYTES); past either, the oldest go. */
export interface StreamLimits {
  maxAgeMs: number;
  maxBytes: number;
  /** `num_replicas` of the streams (NATS_STREAM_REPLICAS); unset: 1, a single server's. */
  replicas?: number;
  /** How long a dead-letter stream keeps a dead letter (NATS_DLQ_MAX_AGE_HOURS); unset: DEFAULT_DEAD_LETTER_MAX_AGE_MS. */
  deadLetterMaxAgeMs?: number;
  /** The most a dead-letter stream holds (NATS_DLQ_MAX_BYTES); unset: DEFAULT_DEAD_LETTER_MAX_BYTES. */
  deadLetterMaxBytes?: number;
}

/** 30 days: a dead letter waits for a person (and often a fix and a deploy), not for a consumer to come back. */
const DEFAULT_DEAD_LETTER_MAX_AGE_MS = 30 * 24 * 3_600_000;

/**
 * 128 MiB: dead letters are the exception (about 250,000 of 500 bytes), and NATS reserves a stream's max_bytes on its
 * disk when it creates the stream, so the dead letters do not take another event stream's gigabyte.
 */
const DEFAULT_DEAD_LETTER_MAX_BYTES = 128 * 1024 * 1024;

/** A service's stream of domain events, or a consuming service's stream of dead letters (kept longer). */
export type StreamKind = 'events' | 'dead-letters';

const NANOS_PER_MS = 1_000_000;

/** The stream configuration fields of the limits and the duplicate window (JetStream counts durations in ns). */
export function streamLimitsConfig(
  limits: StreamLimits,
  kind: StreamKind = 'events',
): { max_age: number; max_bytes: number; duplicate_window: number; num_replicas: number } {
  const events = kind === 'events';
  const maxAgeMs = events ? limits.maxAgeMs : (limits.deadLetterMaxAgeMs ?? DEFAULT_DEAD_LETTER_MAX_AGE_MS);
  const maxBytes = events ? limits.maxBytes : (limits.deadLetterMaxBytes ?? DEFAULT_DEAD_LETTER_MAX_BYTES);
  return {
    max_age: maxAgeMs * NANOS_PER_MS,
    max_bytes: maxBytes,
    duplicate_window: DUPLICATE_WINDOW_MS * NANOS_PER_MS,
    num_replicas: limits.replicas ?? 1,
  };
}
