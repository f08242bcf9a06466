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

/** A domain event published on JetStream after its change commits (subject `<service>.<entity>.<verb>`). */
export interface EventContract<Data extends z.ZodType> {
  subject: string;
  data: Data;
}

export function defineEvent<Data extends z.ZodType>(subject: string, data: Data): EventContract<Data> {
  return { subject, data };
}

/** The envelope of every domain event. `id` doubles as the JetStream `Nats-Msg-Id` (deduplication). */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  occurred_at: z.iso.datetime(),
  organization_id: z.uuid(),
  correlation_id: z.string().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

/** A JetStream stream: one per publishing service, holding exactly the subjects of its domain events. */
export interface StreamContract {
  name: string;
  subjects: readonly string[];
}

export function defineStream(name: string, events: readonly EventContract<z.ZodType>[]): StreamContract {
  return { name, subjects: events.map((event) => event.subject) };
}
