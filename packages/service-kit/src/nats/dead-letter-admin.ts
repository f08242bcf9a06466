import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import type { JetStreamClient, JetStreamManager, StoredMsg } from '@nats-io/jetstream';
import { DeadLetterHeader, deadLetterStream, OUTBOX_DEAD_LETTERS } from './dead-letter-naming.js';
import { isJetStreamApiError, JetStreamCode } from './jetstream-errors.js';
import { prefixedName, prefixedSubject } from './naming.js';

/** One dead letter as `dlq list` shows it; `seq` is its sequence in its service's dead-letter stream. */
export interface DeadLetterSummary {
  service: string;
  seq: number;
  consumer: string;
  subject: string;
  eventId: string;
  type: string;
  reason: string;
  error: string;
  deliveries: number;
  failedAt: string;
}

/** A dead letter with everything it carries, as `dlq show` prints it. */
export interface DeadLetterRecord extends DeadLetterSummary {
  headers: Record<string, string[]>;
  /** The event as it was published (UTF-8; a malformed one may not be JSON). */
  payload: string;
  data: Uint8Array;
}

export interface DeadLetterFilter {
  service?: string;
  consumer?: string;
}

/**
 * The dead letters of the services (`services`: those that consume or publish a stream) under one NATS_PREFIX, for the `dlq` CLI: reads them by
 * stream sequence (STREAM.MSG.GET, no consumer needed, so its NATS user needs no consumer rights), replays one to
 * its original subject and removes it (STREAM.MSG.DELETE).
 */
export class DeadLetters {
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly prefix: string,
    private readonly services: readonly string[],
  ) {}

  /** Every dead letter (of the filter's service and consumer), oldest first per service. */
  async list(filter: DeadLetterFilter = {}): Promise<DeadLetterRecord[]> {
    const found: DeadLetterRecord[] = [];
    for (const service of this.services.filter((name) => !filter.service || name === filter.service)) {
      const stream = this.streamOf(service);
      const state = await this.jsm.streams
        .info(stream)
        .then((info) => info.state)
        .catch((error: unknown) => {
          if (isJetStreamApiError(error, JetStreamCode.StreamNotFound)) return null; // its consumers never started
          throw error;
        });
      if (!state || state.messages === 0) continue;
      for (let seq = state.first_seq; seq <= state.last_seq; seq += 1) {
        const stored = await this.jsm.streams.getMessage(stream, { seq });
        if (stored && (!filter.consumer || stored.header.get(DeadLetterHeader.consumer) === filter.consumer))
          found.push(recordOf(service, stored));
      }
    }
    return found;
  }

  /** The dead letter `seq` of `service`'s stream; null when there is none (never was, replayed or discarded). */
  async get(service: string, seq: number): Promise<DeadLetterRecord | null> {
    const stored = await this.jsm.streams.getMessage(this.streamOf(service), { seq }).catch((error: unknown) => {
      if (isJetStreamApiError(error, JetStreamCode.StreamNotFound)) return null;
      throw error;
    });
    return stored && recordOf(service, stored);
  }

  /**
   * Publishes the dead letter to its original subject again, then removes it. The copy carries the original headers
   * and `Dlq-Replay-For: <durable>`: that durable applies it (its inbox has no row of the event, whose transaction
   * failed); every other durable of the stream acks it unapplied. Its Nats-Msg-Id is `dlq-replay:<stream>:<seq>`, not
   * the event id, which JetStream would drop as a duplicate within its window; a replay repeated within the window
   * (a crash before the removal) is dropped instead.
   */
  async replay(letter: DeadLetterRecord): Promise<void> {
    if (!letter.subject.startsWith(prefixedSubject(this.prefix, '')))
      throw new Error(`dead letter ${letter.seq}'s subject ${letter.subject} is not under NATS_PREFIX ${this.prefix}`);
    if (letter.consumer === OUTBOX_DEAD_LETTERS) return this.replayOutboxLetter(letter);
    const h = natsHeaders();
    for (const [key, values] of Object.entries(letter.headers))
      if (!key.startsWith('Dlq-')) for (const value of values) h.append(key, value);
    h.set(DeadLetterHeader.replayFor, letter.consumer);
    await this.js.publish(letter.subject, letter.data, {
      headers: h,
      msgID: `dlq-replay:${this.streamOf(letter.service)}:${letter.seq}`,
    });
    await this.discard(letter);
  }

  /**
   * An event its relay set aside was never published: it goes to every consumer, as the relay would have sent it
   * (Nats-Msg-Id = the event id, so a copy that did reach the stream is dropped). One too large for the broker cannot
   * be sent from here: it stays in its service's outbox row.
   */
  private async replayOutboxLetter(letter: DeadLetterRecord): Promise<void> {
    const omitted = letter.headers[DeadLetterHeader.payloadOmitted]?.[0];
    if (omitted !== undefined)
      throw new Error(
        `dead letter ${letter.seq} (event ${letter.eventId}) is ${omitted} bytes, more than the broker takes: it is kept in ` +
          `${letter.service}'s outbox (dead_at set); raise the server's max_payload, then clear dead_at of that row to publish it`,
      );
    const h = natsHeaders();
    for (const [key, values] of Object.entries(letter.headers))
      if (!key.startsWith('Dlq-')) for (const value of values) h.append(key, value);
    await this.js.publish(letter.subject, letter.data, {
      headers: h,
      msgID: letter.headers[DeadLetterHeader.msgId]?.[0] ?? letter.eventId,
    });
    await this.discard(letter);
  }

  /** Removes the dead letter for good. */
  async discard(letter: Pick<DeadLetterSummary, 'service' | 'seq'>): Promise<void> {
    await this.jsm.streams.deleteMessage(this.streamOf(letter.service), letter.seq, false);
  }

  private streamOf(service: string): string {
    if (!this.services.includes(service)) throw new Error(`${service} has no dead letters: it neither consumes nor publishes a stream`);
    return prefixedName(this.prefix, deadLetterStream(service).name);
  }
}

function recordOf(service: string, stored: StoredMsg): DeadLetterRecord {
  const h = stored.header;
  const one = (name: string) => h.get(name) ?? '';
  return {
    service,
    seq: stored.seq,
    consumer: one(DeadLetterHeader.consumer),
    subject: one(DeadLetterHeader.subject),
    eventId: one(DeadLetterHeader.eventId),
    type: one(DeadLetterHeader.eventType),
    reason: one(DeadLetterHeader.reason),
    error: one(DeadLetterHeader.error),
    deliveries: Number(one(DeadLetterHeader.deliveries)),
    failedAt: one(DeadLetterHeader.failedAt),
    headers: headersOf(h),
    payload: stored.string(),
    data: stored.data,
  };
}

function headersOf(h: MsgHdrs): Record<string, string[]> {
  return Object.fromEntries(h.keys().map((key) => [key, h.values(key)]));
}
