/**
 * Where a consuming service's dead letters live, unprefixed (the bus, the permissions and the `dlq` CLI add
 * NATS_PREFIX alike): one stream per consuming service, `DLQ_<SERVICE>`, holding `dlq.<service>.<durable>.<event
 * type>`, so a dead letter can be listed by service, by consumer and by event type with a subject filter, and each
 * service's NATS user may write to its own durables' subjects only.
 */
export function deadLetterStream(service: string): { name: string; subjects: string[] } {
  return { name: `DLQ_${service.toUpperCase().replaceAll('-', '_')}`, subjects: [`dlq.${service}.>`] };
}

/** The subject of a dead letter of `durable` (a durable of `service`), for an event of `eventType`. */
export function deadLetterSubject(service: string, durable: string, eventType: string): string {
  return `dlq.${service}.${durable}.${eventType}`;
}

/** Every dead-letter subject of `durable`: what its service's user may publish, and the CLI's `--consumer` filter. */
export function deadLetterSubjectsOf(service: string, durable: string): string {
  return `dlq.${service}.${durable}.>`;
}

/**
 * The consumer name of a producing service's own dead letters: outbox rows its relay set aside (the broker refused
 * them for good, or again and again). Their replay goes to every consumer, since none ever received the event.
 */
export const OUTBOX_DEAD_LETTERS = 'outbox';

/** The headers a dead letter carries besides the original event's own (`Dlq-Msg-Id` holds its Nats-Msg-Id). */
export const DeadLetterHeader = {
  /** The event's subject on its stream, with the prefix: where `replay` publishes it again. */
  subject: 'Dlq-Subject',
  service: 'Dlq-Service',
  consumer: 'Dlq-Consumer',
  stream: 'Dlq-Stream',
  streamSequence: 'Dlq-Stream-Seq',
  deliveries: 'Dlq-Deliveries',
  /** `malformed` (not JSON, not an envelope, data of no known schema version) or `failed` (the handler threw). */
  reason: 'Dlq-Reason',
  error: 'Dlq-Error',
  failedAt: 'Dlq-Failed-At',
  eventId: 'Dlq-Event-Id',
  eventType: 'Dlq-Event-Type',
  /** The event's own Nats-Msg-Id, kept aside: as Nats-Msg-Id it would make the dead-letter stream drop lookalikes. */
  msgId: 'Dlq-Msg-Id',
  /** On an outbox dead letter whose event is too large to carry: its size in bytes (the event stays in the outbox row). */
  payloadOmitted: 'Dlq-Payload-Omitted',
  /** Set on a replayed event: consumers other than this durable ack it without applying it. */
  replayFor: 'Dlq-Replay-For',
} as const;
