import { invalidInput } from '../errors.js';

/** NATS's default `max_payload`, the limit while no connection has told its own (a bare test, a CLI). */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/**
 * Room kept for what a publish adds to the envelope: its headers (Nats-Msg-Id, traceparent, tracestate) count
 * against `max_payload` too. Generous on purpose: the check must refuse every event the broker would refuse.
 */
const HEADER_ALLOWANCE = 4096;

const limits = new Set<() => number | undefined>();

/**
 * Tells the outbox what the broker takes: `maxPayload` reads the connection's current server info (it changes when
 * the client reconnects to another server of a cluster). Every bus of the process registers its connection; the
 * smallest limit wins, so an event is written only when every broker the process publishes to would take it.
 */
export function registerBrokerLimit(maxPayload: () => number | undefined): () => void {
  limits.add(maxPayload);
  return () => limits.delete(maxPayload);
}

/** The largest envelope (UTF-8 bytes of its JSON) the broker would take with the relay's headers. */
function maxEnvelopeBytes(): number {
  let smallest = DEFAULT_MAX_PAYLOAD;
  let told = false;
  for (const read of limits) {
    const value = read();
    if (value === undefined || value <= 0) continue;
    smallest = told ? Math.min(smallest, value) : value;
    told = true;
  }
  return smallest - HEADER_ALLOWANCE;
}

/**
 * Refuses, before the transaction commits, an event the broker could never take: a 400 naming the record's field
 * that weighs most, so nothing is committed that would then be stuck in the outbox. `json` is the envelope as stored.
 */
export function assertPublishable(json: string, data: unknown): void {
  const bytes = Buffer.byteLength(json);
  const limit = maxEnvelopeBytes();
  if (bytes <= limit) return;
  const field = heaviestField(data);
  throw invalidInput(
    field,
    `${field} is too large: this change's event would be ${bytes} bytes, and the message broker takes at most ${limit}`,
  );
}

/** The path of the top-level field (of the event's record, when it carries one) whose JSON is the largest. */
function heaviestField(data: unknown): string {
  const record = isObject(data) && isObject(data.record) ? data.record : data;
  if (!isObject(record)) return 'body';
  let heaviest = 'body';
  let weight = -1;
  for (const [key, value] of Object.entries(record)) {
    const size = Buffer.byteLength(JSON.stringify(value) ?? '');
    if (size > weight) [heaviest, weight] = [key, size];
  }
  return heaviest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
