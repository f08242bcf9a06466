import { z } from 'zod';
import { eventEnvelopeSchema, FEED_POSITION_HEADERS, type EventContract } from './messaging.js';
import { NATS_TOPOLOGY } from './topology.js';
import { webhookPayloadSchema } from './webhook-payloads.js';
import { WEBHOOK_EVENT_TYPES } from './webhooks-http.js';

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
 * It ends with the webhooks: the payloads the webhooks service POSTs to endpoints, one message per public type.
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
  for (const [service, entry] of sorted(Object.entries(topology))) {
    for (const [, reader] of sorted(Object.entries(entry.reads ?? {}))) {
      for (const subject of reader.stream.events.map((contract) => contract.subject)) {
        const channel = channels[subject] as { messages: Json } | undefined;
        operations[`${reader.name}.receive.${subject}`] = {
          action: 'receive',
          title: `${service} reads ${subject} in order`,
          summary:
            `In-order reader ${reader.name} of the stream ${reader.stream.name} (the change feed): every message once, in stream ` +
            'order, from the sequence it stored last; no acks.',
          channel: { $ref: `#/channels/${subject}` },
          messages: Object.keys(channel?.messages ?? {}).map((name) => ({ $ref: `#/channels/${subject}/messages/${name}` })),
        };
      }
    }
  }
  // The webhooks service's deliveries, when the topology has it (the real one does; a test's may not).
  if (Object.hasOwn(topology, 'webhooks')) addWebhooks({ channels, operations, messages, schemas });
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
  publishes: StreamLike | null;
  consumes: Readonly<Record<string, { durable: string; stream: StreamLike }>>;
  reads?: Readonly<Record<string, { name: string; stream: StreamLike }>>;
}

interface StreamLike {
  name: string;
  events: readonly EventContract<z.ZodType>[];
}

function versionsOf(contract: EventContract<z.ZodType>): { version: number; data: z.ZodType }[] {
  const current = { version: contract.version, data: contract.data };
  return contract.previous ? [current, { version: contract.version - 1, data: contract.previous.data }] : [current];
}

/** The message of one version of an event (named schemas it contains go to `schemas`). */
function message(contract: EventContract<z.ZodType>, version: number, data: z.ZodType, schemas: Json): Json {
  const envelope = eventEnvelopeSchema.extend({ type: z.literal(contract.subject), schema_version: z.literal(version), data });
  // Input shape: what a consumer accepts (fields it does not know are ignored, not refused).
  const payload = payloadSchema(envelope, 'input', schemas);
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
      properties: {
        'Nats-Msg-Id': { type: 'string', description: 'The event id: JetStream drops a duplicate publish.' },
        [FEED_POSITION_HEADERS.transaction]: {
          type: 'string',
          description: "The change feed's position: the id of the Postgres transaction that recorded the event (decimal).",
        },
        [FEED_POSITION_HEADERS.sequence]: {
          type: 'string',
          description: "The event's outbox sequence: its place among the events of one transaction (decimal).",
        },
      },
    },
    payload,
  };
}

/**
 * A message payload's JSON schema. Named schemas in it (the API records, `.meta({id})` in the contracts) go to
 * `schemas`, the document's `components.schemas`, once, and the payload refers to them there.
 */
function payloadSchema(schema: z.ZodType, io: 'input' | 'output', schemas: Json): Json {
  const generated = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' });
  const {
    $schema: _dialect,
    definitions,
    ...payload
  } = JSON.parse(JSON.stringify(generated).replaceAll('"#/definitions/', '"#/components/schemas/')) as Json;
  Object.assign(schemas, definitions);
  return payload;
}

/**
 * The webhooks: what the webhooks service POSTs to each subscribed endpoint, one message per public type, on one
 * channel whose address is the endpoint's URL. Not gated by `schema_version` (webhook payloads have none): their
 * `data` are the API's records, which the OpenAPI gate holds to compatibility.
 */
function addWebhooks(document: { channels: Json; operations: Json; messages: Json; schemas: Json }): void {
  const names = WEBHOOK_EVENT_TYPES.map((type) => {
    const name = `webhook.${type}`;
    const payload = payloadSchema(webhookPayloadSchema(type), 'output', document.schemas);
    document.messages[name] = {
      name: type,
      title: `${type} (webhook)`,
      contentType: 'application/json',
      headers: {
        type: 'object',
        required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
        properties: {
          'webhook-id': { type: 'string', description: 'The domain event id, the same on every retry: deduplicate by it.' },
          'webhook-timestamp': { type: 'string', description: 'Unix seconds of this attempt.' },
          'webhook-signature': {
            type: 'string',
            description:
              '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the endpoint secret (Standard ' +
              'Webhooks); during a secret rotation two such entries separated by a space.',
          },
        },
      },
      payload,
    };
    return name;
  });
  document.channels.webhooks = {
    address: null,
    title: 'Webhook endpoints',
    description:
      "POSTed by the webhooks service to each enabled endpoint of the event's organization subscribed to its type, " +
      'with `previous_attributes` beside `data` for updates, status changes and reschedules ' +
      '(the address is the endpoint URL), retried on WEBHOOKS_RETRY_SCHEDULE_MS until a 2xx; at least once per endpoint.',
    messages: Object.fromEntries(names.map((name) => [name, { $ref: `#/components/messages/${name}` }])),
  };
  document.operations['webhooks.send'] = {
    action: 'send',
    title: 'webhooks delivers to endpoints',
    channel: { $ref: '#/channels/webhooks' },
    messages: names.map((name) => ({ $ref: `#/channels/webhooks/messages/${name}` })),
  };
}

function sorted<T>(entries: [string, T][]): [string, T][] {
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function sortedObject(value: Json): Json {
  return Object.fromEntries(sorted(Object.entries(value)));
}
