import { z } from 'zod';
import { eventEnvelopeSchema, type EventContract } from './messaging.js';
import { NATS_TOPOLOGY } from './topology.js';

/** The AsyncAPI document's own version; each event's contract is versioned by its `schema_version`. */
const DOCUMENT_VERSION = '1.0.0';

type Json = Record<string, unknown>;

/** `bookings.booking.created.v2`: the component name of one version of one event's message. */
export function eventMessageName(subject: string, version: number): string {
  return `${subject}.v${version}`;
}

/**
 * The AsyncAPI 3.0.0 document of the domain events, written from the zod contracts and NATS_TOPOLOGY: one channel
 * per subject (its `address`), the publishing service's `send` operation and each durable consumer's `receive`
 * operation, and one message per event and `schema_version` whose payload is the whole envelope with `data` inline
 * and `schema_version` as a const. While an event has a previous version, its channel carries both messages:
 * publishers send the current one, consumers accept both. Everything is sorted, so the same contracts always give
 * the same document (the committed snapshot, asyncapi/asyncapi.json, is compared with it by `npm test`).
 * Webhook payloads join it once the webhooks service exists.
 */
export function asyncApiDocument(topology: Readonly<Record<string, ServiceTopologyLike>> = NATS_TOPOLOGY): Json {
  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  const schemas: Json = {};
  for (const [service, entry] of sorted(Object.entries(topology))) {
    for (const contract of entry.publishes?.events ?? []) {
      const versions = versionsOf(contract);
      for (const { version, data } of versions)
        messages[eventMessageName(contract.subject, version)] = message(contract, version, data, schemas);
      channels[contract.subject] = {
        address: contract.subject,
        description: `Published by ${service} on the stream ${entry.publishes?.name ?? ''} after its change commits.`,
        messages: Object.fromEntries(
          versions.map(({ version }) => {
            const name = eventMessageName(contract.subject, version);
            return [name, { $ref: `#/components/messages/${name}` }];
          }),
        ),
      };
      operations[`${service}.send.${contract.subject}`] = {
        action: 'send',
        title: `${service} publishes ${contract.subject}`,
        summary: `Sent by ${service} through its transactional outbox (Nats-Msg-Id = the event id), schema_version ${contract.version}.`,
        channel: { $ref: `#/channels/${contract.subject}` },
        messages: [{ $ref: `#/channels/${contract.subject}/messages/${eventMessageName(contract.subject, contract.version)}` }],
      };
    }
  }
  for (const [service, entry] of sorted(Object.entries(topology))) {
    for (const [, consumer] of sorted(Object.entries(entry.consumes))) {
      for (const contract of consumer.stream.events) {
        operations[`${consumer.durable}.receive.${contract.subject}`] = {
          action: 'receive',
          title: `${service} receives ${contract.subject}`,
          summary:
            `Durable consumer ${consumer.durable} of the stream ${consumer.stream.name} (explicit ack); it accepts the current and ` +
            'the previous schema_version and terminates any other; an event type it has no handler for is acknowledged and skipped.',
          channel: { $ref: `#/channels/${contract.subject}` },
          messages: versionsOf(contract).map(({ version }) => ({
            $ref: `#/channels/${contract.subject}/messages/${eventMessageName(contract.subject, version)}`,
          })),
        };
      }
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Scheduling and shop domain events',
      version: DOCUMENT_VERSION,
      description:
        'Domain events published on NATS JetStream, each after its change commits (transactional outbox), as a JSON envelope ' +
        '{id, type, schema_version, occurred_at, organization_id, correlation_id, data}. `schema_version` is the version of ' +
        "`data`'s schema: a breaking change (a field removed or renamed, a type changed, a new required field) comes with a new " +
        "version, and consumers accept the current and the previous one. Subjects carry the deployment's NATS prefix, if any.",
    },
    defaultContentType: 'application/json',
    channels: sortedObject(channels),
    operations: sortedObject(operations),
    components: { messages: sortedObject(messages), ...(Object.keys(schemas).length > 0 && { schemas: sortedObject(schemas) }) },
  };
}

/** What the document needs of a service's topology entry (NATS_TOPOLOGY's, or a test's). */
export interface ServiceTopologyLike {
  publishes: { name: string; events: readonly EventContract<z.ZodType>[] } | null;
  consumes: Readonly<Record<string, { durable: string; stream: { name: string; events: readonly EventContract<z.ZodType>[] } }>>;
}

function versionsOf(contract: EventContract<z.ZodType>): { version: number; data: z.ZodType }[] {
  const current = { version: contract.version, data: contract.data };
  return contract.previous ? [current, { version: contract.version - 1, data: contract.previous.data }] : [current];
}

/**
 * The message of one version of an event. Named schemas it contains (the API records events carry, `.meta({id})` in the
 * contracts) go to `schemas`, the document's `components.schemas`, once, and the payload refers to them there.
 */
function message(contract: EventContract<z.ZodType>, version: number, data: z.ZodType, schemas: Json): Json {
  const envelope = eventEnvelopeSchema.extend({ type: z.literal(contract.subject), schema_version: z.literal(version), data });
  // Input shape: what a consumer accepts (fields it does not know are ignored, not refused).
  const generated = z.toJSONSchema(envelope, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
  const {
    $schema: _dialect,
    definitions,
    ...payload
  } = JSON.parse(JSON.stringify(generated).replaceAll('"#/definitions/', '"#/components/schemas/')) as Json;
  Object.assign(schemas, definitions);
  const properties = payload.properties as Json;
  properties.schema_version = { type: 'integer', const: version, description: "The version of `data`'s schema." };
  return {
    name: contract.subject,
    title: `${contract.subject} (schema_version ${version})`,
    contentType: 'application/json',
    ...(version === contract.version ? {} : { summary: `The previous version, still accepted by consumers.` }),
    correlationId: { location: '$message.payload#/correlation_id' },
    headers: {
      type: 'object',
      properties: { 'Nats-Msg-Id': { type: 'string', description: 'The event id: JetStream drops a duplicate publish.' } },
    },
    payload,
  };
}

function sorted<T>(entries: [string, T][]): [string, T][] {
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function sortedObject(value: Json): Json {
  return Object.fromEntries(sorted(Object.entries(value)));
}
