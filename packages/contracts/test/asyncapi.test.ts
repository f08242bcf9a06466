import specs from '@asyncapi/specs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  asyncApiDocument,
  defineEvent,
  defineStream,
  eventEnvelopeSchema,
  NATS_TOPOLOGY,
  TYPES_WITH_PREVIOUS_ATTRIBUTES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TYPE_OF_SUBJECT,
  webhookData,
  webhookPreviousAttributes,
} from '../src/index.js';

// A publisher whose event is at schema_version 2 (`by` became `amount`), and a consumer of its stream.
const added = defineEvent('tally.tally.added', z.object({ tally: z.string(), amount: z.number().int() }), {
  version: 2,
  previous: { data: z.object({ tally: z.string(), by: z.number().int() }), upgrade: (data) => ({ tally: data.tally, amount: data.by }) },
});
const reset = defineEvent('tally.tally.reset', z.object({ tally: z.string() }));
const TALLY = defineStream('TALLY', [added, reset]);
const topology = {
  watcher: { publishes: null, consumes: { tallies: { durable: 'watcher-tallies', stream: TALLY } } },
  tally: { publishes: TALLY, consumes: {} },
};

type Json = Record<string, unknown>;
/** The official AsyncAPI 3.0.0 JSON Schema (it embeds the draft-07 meta-schema, so Ajv's own is left out). */
const validateAsyncApi = new Ajv({ strict: false, validateFormats: false, meta: false, validateSchema: false, allErrors: true }).compile(
  specs.schemas['3.0.0'],
);

const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], value);

describe('asyncApiDocument', () => {
  it('when written from the real contracts, then it is a valid AsyncAPI 3.0.0 document with a channel per published event', () => {
    const document = asyncApiDocument();
    expect(validateAsyncApi(document), JSON.stringify(validateAsyncApi.errors, null, 2)).toBe(true);
    // The validator does refuse: no info, or an operation in AsyncAPI 2's words.
    expect(validateAsyncApi({ ...document, info: undefined })).toBe(false);
    const operations = at(document, 'operations') as Json;
    const [name, operation] = Object.entries(operations)[0] ?? [];
    expect(
      validateAsyncApi({ ...document, operations: { ...operations, [String(name)]: { ...(operation as Json), action: 'publish' } } }),
    ).toBe(false);
    const subjects = Object.values(NATS_TOPOLOGY).flatMap((service) => service.publishes?.subjects ?? []);
    expect(Object.keys(at(document, 'channels') as Json).sort()).toEqual([...subjects, 'webhooks'].sort());
    expect(at(document, 'channels', 'bookings.booking.created', 'address')).toBe('bookings.booking.created');
    expect(at(document, 'operations', 'scheduling-bookings.receive.bookings.booking.created', 'action')).toBe('receive');
    // The webhooks service's in-order readers of every public stream (the change feed).
    expect(at(document, 'operations', 'webhooks-feed-bookings.receive.bookings.booking.created', 'action')).toBe('receive');
    expect(at(document, 'operations', 'webhooks-feed-calendar.receive.calendar.busy.updated', 'action')).toBe('receive');
  });

  it('when written, then the webhooks channel has one message per public type, whose data is the API record or {id}', () => {
    const document = asyncApiDocument();
    const names = Object.keys(at(document, 'channels', 'webhooks', 'messages') as Json);
    expect(names.sort()).toEqual(WEBHOOK_EVENT_TYPES.map((type) => `webhook.${type}`).sort());
    const data = (type: string) => at(document, 'components', 'messages', `webhook.${type}`, 'payload', 'properties', 'data');
    expect(data('booking.created')).toEqual({ $ref: '#/components/schemas/Booking' });
    expect(at(data('schedule.updated'), 'required')).toEqual(expect.arrayContaining(['id', 'name', 'timezone', 'availability']));
    expect(at(data('calendar_connection.removed'), 'required')).toEqual(['id']);
    expect(at(data('webhook.test'), 'required')).toEqual(['endpoint_id']);
    expect(at(document, 'components', 'messages', 'webhook.booking.created', 'headers', 'required')).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    // Every public type but webhook.test comes from one domain event; internal ones are not offered.
    expect(Object.values(WEBHOOK_TYPE_OF_SUBJECT).sort()).toEqual(WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test').sort());
    expect(WEBHOOK_TYPE_OF_SUBJECT['calendar.busy.updated']).toBeUndefined();
    expect(webhookData('calendar.connection.removed', { connection_id: 'c1', schedule_id: 's1' })).toEqual({ id: 'c1' });
    expect(webhookData('bookings.booking.created', { booking_id: 'b1', record: { id: 'b1' } })).toEqual({ id: 'b1' });
  });

  it('when written, then updates, status changes and reschedules say what their previous_attributes hold, and no other type has them', () => {
    const document = asyncApiDocument();
    const previous = (type: string) =>
      at(document, 'components', 'messages', `webhook.${type}`, 'payload', 'properties', 'previous_attributes');
    expect(TYPES_WITH_PREVIOUS_ATTRIBUTES.toSorted()).toEqual(
      WEBHOOK_EVENT_TYPES.filter((type) => /\.(updated|status_changed)$/.test(type) || type === 'booking.rescheduled').toSorted(),
    );
    for (const type of WEBHOOK_EVENT_TYPES) expect(previous(type) !== undefined, type).toBe(TYPES_WITH_PREVIOUS_ATTRIBUTES.includes(type));
    expect(at(previous('booking.rescheduled'), 'properties', 'start_time')).toMatchObject({ type: 'string' });
    expect(at(previous('booking.rescheduled'), 'description')).toContain('`start_time` and `end_time`');
    expect(at(previous('product.updated'), 'properties', 'updated_at')).toBeUndefined();
    expect(at(previous('product.updated'), 'properties', 'price')).toBeDefined();
    // Read from what the producer wrote, or from an older event's previous_* fields.
    expect(webhookPreviousAttributes('bookings.booking.status_changed', { previous_status: 'PENDING' })).toEqual({ status: 'PENDING' });
    expect(webhookPreviousAttributes('bookings.booking.updated', { previous_attributes: { title: 'Old' } })).toEqual({ title: 'Old' });
    expect(webhookPreviousAttributes('bookings.booking.created', { previous_attributes: { title: 'Old' } })).toBeUndefined();
    expect(webhookData('scheduling.schedule.updated', { id: 's1', name: 'Desk', previous_attributes: { name: 'Old' } })).toEqual({
      id: 's1',
      name: 'Desk',
    });
  });

  it('when an event has a previous version, then its channel carries both messages: publishers send the current, consumers accept both', () => {
    const document = asyncApiDocument(topology);
    expect(validateAsyncApi(document), JSON.stringify(validateAsyncApi.errors, null, 2)).toBe(true);
    expect(at(document, 'channels', 'tally.tally.added')).toEqual({
      address: 'tally.tally.added',
      description: 'Published by tally on the stream TALLY after its change commits.',
      messages: {
        'tally.tally.added.v2': { $ref: '#/components/messages/tally.tally.added.v2' },
        'tally.tally.added.v1': { $ref: '#/components/messages/tally.tally.added.v1' },
      },
    });
    expect(at(document, 'operations', 'tally.send.tally.tally.added', 'messages')).toEqual([
      { $ref: '#/channels/tally.tally.added/messages/tally.tally.added.v2' },
    ]);
    expect(at(document, 'operations', 'watcher-tallies.receive.tally.tally.added', 'messages')).toEqual([
      { $ref: '#/channels/tally.tally.added/messages/tally.tally.added.v2' },
      { $ref: '#/channels/tally.tally.added/messages/tally.tally.added.v1' },
    ]);
    const current = at(document, 'components', 'messages', 'tally.tally.added.v2', 'payload');
    const previous = at(document, 'components', 'messages', 'tally.tally.added.v1', 'payload');
    expect(at(current, 'properties', 'schema_version')).toMatchObject({ type: 'integer', const: 2 });
    expect(at(previous, 'properties', 'schema_version')).toMatchObject({ type: 'integer', const: 1 });
    expect(at(current, 'properties', 'data', 'required')).toEqual(['tally', 'amount']);
    expect(at(previous, 'properties', 'data', 'required')).toEqual(['tally', 'by']);
    // The envelope's own fields, all of them required, as the kit writes them.
    expect(at(current, 'required')).toEqual(Object.keys(eventEnvelopeSchema.shape));
  });

  it('when the same contracts are listed in another order, then the document is the same, byte for byte', () => {
    const reversed = Object.fromEntries(Object.entries(topology).reverse());

    expect(JSON.stringify(asyncApiDocument(reversed))).toBe(JSON.stringify(asyncApiDocument(topology)));
    expect(Object.keys(at(asyncApiDocument(topology), 'operations') as Json)).toEqual([
      'tally.send.tally.tally.added',
      'tally.send.tally.tally.reset',
      'watcher-tallies.receive.tally.tally.added',
      'watcher-tallies.receive.tally.tally.reset',
    ]);
  });
});
