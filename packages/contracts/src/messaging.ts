import { z } from 'zod';

/** A request-reply endpoint over NATS: its subject and the schemas of what is sent and answered. */
export interface RequestContract<Req extends z.ZodType, Res extends z.ZodType> {
  subject: string;
  request: Req;
  reply: Res;
}

export function defineRequest<Req extends z.ZodType, Res extends z.ZodType>(
  subject: string,
  request: Req,
  reply: Res,
): RequestContract<Req, Res> {
  return { subject, request, reply };
}

/**
 * How a request-reply endpoint answers, on the NATS micro services protocol (`@nats-io/services`):
 * - a reply: the body is the reply contract's JSON, as is;
 * - an error: an empty body and the protocol's error headers, `Nats-Service-Error-Code` = the HTTP status and
 *   `Nats-Service-Error` = the message, plus APP_ERROR_CODE_HEADER = our error code (`SLOT_TAKEN`), so the
 *   caller rethrows the very AppError the endpoint threw and `nats micro` tooling still reads it as an error.
 */
export const APP_ERROR_CODE_HEADER = 'App-Error-Code';

/**
 * A domain event published on JetStream after its change commits (subject `<service>.<entity>.<verb>`).
 * `version` is the `schema_version` its envelopes carry: 1 at first, one more with each breaking change of `data`
 * (a field removed or renamed, a type changed, a new required field; the AsyncAPI gate refuses them otherwise). The
 * version before stays readable: `previous` is its data schema and how such data reads as the current one, so a
 * consumer takes events of both versions while publishers and streams move from one to the other.
 */
export interface EventContract<Data extends z.ZodType> {
  subject: string;
  data: Data;
  version: number;
  previous?: PreviousEventVersion<Data>;
}

/** The version before the current one (`version - 1`): its data schema and its upgrade to the current shape. */
export interface PreviousEventVersion<Data extends z.ZodType> {
  data: z.ZodType;
  upgrade: (data: never) => z.input<Data>;
}

export interface EventVersionOptions<Data extends z.ZodType, Previous extends z.ZodType> {
  /** The current `schema_version` (an integer from 1); 1 when omitted. */
  version: number;
  /** Required from version 2 on: the data of `version - 1` and how it reads as the current data. */
  previous?: { data: Previous; upgrade: (data: z.output<Previous>) => z.input<Data> };
}

export function defineEvent<Data extends z.ZodType, Previous extends z.ZodType = z.ZodNever>(
  subject: string,
  data: Data,
  options: EventVersionOptions<Data, Previous> = { version: 1 },
): EventContract<Data> {
  const { version, previous } = options;
  if (!Number.isInteger(version) || version < 1) throw new Error(`${subject}: schema_version must be an integer from 1, not ${version}`);
  if (version === 1 && previous) throw new Error(`${subject}: version 1 has no previous version`);
  if (version > 1 && !previous)
    throw new Error(`${subject}: version ${version} must keep version ${version - 1} readable (previous: { data, upgrade })`);
  return previous ? { subject, data, version, previous } : { subject, data, version };
}

/**
 * The data schema of `version` of an event and how it reads as the current data: the current version as it is,
 * the previous one through its upgrade; undefined for any other version (a consumer terminates such an event).
 */
export function eventDataOfVersion<Data extends z.ZodType>(
  contract: EventContract<Data>,
  version: number,
): { data: z.ZodType; upgrade: (data: unknown) => z.input<Data> } | undefined {
  if (version === contract.version) return { data: contract.data, upgrade: (data) => data as z.input<Data> };
  const previous = contract.previous;
  if (previous && version === contract.version - 1) return { data: previous.data, upgrade: (data) => previous.upgrade(data as never) };
  return undefined;
}

/** The envelope of every domain event. `id` doubles as the JetStream `Nats-Msg-Id` (deduplication). */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  /** The version of `data`'s schema: the contract's `version` when it was published. */
  schema_version: z.number().int().min(1),
  occurred_at: z.iso.datetime(),
  organization_id: z.uuid(),
  correlation_id: z.string().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

/**
 * The change feed's position of an event, as headers of its message (the envelope stays as it is): the id of the
 * Postgres transaction that recorded it (xid8, decimal) and its outbox sequence (docs/architecture.md, "The change
 * feed"). Events published before the outbox kept transaction ids carry neither.
 */
export const FEED_POSITION_HEADERS = { transaction: 'Feed-Tx-Id', sequence: 'Feed-Seq' } as const;

/** A transaction id (Postgres xid8) as decimal text. */
const transactionIdSchema = z.string().regex(/^\d{1,20}$/, { message: 'must be a transaction id' });

/**
 * A stream's change-feed watermark, as its publisher's relay answers it: every event of the stream whose transaction id
 * is below `watermark` is in the stream at or before `sequence` (or was set aside as a dead letter). `stream_created`
 * (JetStream's `created` of the stream) says which stream that is: one made again under the same name starts its
 * sequences over, so an answer holds only for the stream it was read from.
 */
export const feedWatermarkSchema = z.object({
  watermark: transactionIdSchema,
  sequence: z.number().int().min(0),
  stream_created: z.string().max(64),
});
export type FeedWatermark = z.infer<typeof feedWatermarkSchema>;

const watermarkRequestSchema = z.object({});

/**
 * The request a stream's publisher serves with its relay: its current change-feed watermark. The webhooks service asks
 * while stored feed items wait for it (the watermark goes nowhere else: the stream holds events only).
 */
export interface StreamWatermark {
  request: RequestContract<typeof watermarkRequestSchema, typeof feedWatermarkSchema>;
}

/** A JetStream stream: one per publishing service, holding exactly the subjects of its domain events. */
export interface StreamContract {
  name: string;
  subjects: readonly string[];
  /** The event contracts of those subjects (the AsyncAPI document is written from them). */
  events: readonly EventContract<z.ZodType>[];
  watermark: StreamWatermark;
}

/** `events`' stream; its watermark request is named after it in lower case (`BOOKINGS`: `bookings.feed.watermark`). */
export function defineStream(name: string, events: readonly EventContract<z.ZodType>[]): StreamContract {
  // Not one of the stream's subjects (they are listed one by one), so the stream never stores a request.
  const watermark = { request: defineRequest(`${name.toLowerCase()}.feed.watermark`, watermarkRequestSchema, feedWatermarkSchema) };
  return { name, subjects: events.map((event) => event.subject), events, watermark };
}
