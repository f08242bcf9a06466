import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { PermissionViolationError, type NatsConnection } from '@nats-io/nats-core';
import type pg from 'pg';
import {
  availabilityCheckRequest,
  BOOKING_STATE_EVENTS,
  bookingCreatedEvent,
  calendarBusyUpdatedEvent,
  calendarConnectionRemovedEvent,
  NATS_TOPOLOGY,
  scheduleGetRequest,
  SERVICE_NAMES,
  type BookingState,
  type ServiceName,
} from '@app/contracts';
import {
  AppError,
  Bus,
  consumerTask,
  DEAD_LETTER_ADMIN_USER,
  DeadLetters,
  eventHandler,
  natsAuthorizationConfig,
  OutboxRelay,
  readStreamInOrder,
  recordEvent,
  streamCreated,
  startConsumer,
  withTransaction,
} from '../src/index.js';
import { NatsBinary } from '@app/service-testing';
import { envelopeOf } from './support/envelopes.js';
import { eventually, kitSchema, silentLog } from './support/kit-env.js';

/**
 * The generated NATS users on a nats-server of the test's own: each service's user can do what its topology in
 * @app/contracts says, through the kit's own bus, relay and consumer, and nothing of another service's.
 */
const PREFIX = `perm_${randomBytes(3).toString('hex')}`;
const USERS = Object.fromEntries(
  SERVICE_NAMES.map((service) => [service, { user: service, password: `pw-${randomBytes(8).toString('hex')}` }]),
) as Record<ServiceName, { user: string; password: string }>;
/** The `dlq` CLI's user. */
const DLQ_PASSWORD = `pw-${randomBytes(8).toString('hex')}`;

let nats: NatsBinary;
const opened: { close(): Promise<void> }[] = [];

async function busOf(service: ServiceName): Promise<Bus> {
  const bus = await Bus.connect({
    url: nats.url,
    prefix: PREFIX,
    service,
    credentials: USERS[service],
    requestTimeoutMs: 1000,
    log: silentLog,
  });
  opened.push(bus);
  return bus;
}

/** A raw connection as `service`'s user (with the inbox prefix its bus uses), recording the server's refusals. */
async function rawAs(
  service: ServiceName | typeof DEAD_LETTER_ADMIN_USER,
): Promise<{ nc: NatsConnection; refusals: PermissionViolationError[] }> {
  const { user, password: pass } = service === DEAD_LETTER_ADMIN_USER ? { user: service, password: DLQ_PASSWORD } : USERS[service];
  const nc = await connect({ servers: nats.url, user, pass, inboxPrefix: `_INBOX_${service}` });
  opened.push({ close: () => nc.close() });
  const refusals: PermissionViolationError[] = [];
  void (async () => {
    for await (const status of nc.status())
      if (status.type === 'error' && status.error instanceof PermissionViolationError) refusals.push(status.error);
  })();
  return { nc, refusals };
}

/** A booking's state as bookings records it, for the events these tests publish. */
const pendingBooking = (): BookingState => ({
  booking_id: randomUUID(),
  schedule_id: randomUUID(),
  event_type_id: null,
  status: 'PENDING',
  start_time: '2030-01-07T09:00:00.000Z',
  end_time: '2030-01-07T09:30:00.000Z',
  version: 1,
  seats: 1,
});

/** Bookings' outbox relay under bookings' user, stopped after the test. */
async function bookingsRelay(pool: pg.Pool): Promise<OutboxRelay> {
  const relay = new OutboxRelay({ pool, bus: await busOf('bookings'), stream: NATS_TOPOLOGY.bookings.publishes, pollMs: 100 });
  await relay.start();
  opened.push({ close: () => relay.stop() });
  return relay;
}

const refused = (refusals: PermissionViolationError[], operation: string, subject: string) =>
  eventually(async () => refusals.find((refusal) => refusal.operation === operation && refusal.subject === subject));

beforeAll(async () => {
  nats = new NatsBinary(natsAuthorizationConfig(PREFIX, USERS, { password: DLQ_PASSWORD }));
  await nats.start();
});
afterAll(async () => {
  for (const connection of opened.reverse()) await connection.close().catch(() => undefined);
  await nats.remove();
});

describe('NATS users generated from the topology', () => {
  it('when a client has no user, or a wrong password, then it cannot connect', async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/authorization violation/i);
    await expect(connect({ servers: nats.url, reconnect: false, user: 'bookings', pass: 'not-the-password' })).rejects.toThrow(
      /authorization violation/i,
    );
  });

  it("when bookings' user publishes calendar.busy.updated, then the server refuses it and the calendar stream stays empty", async () => {
    const calendar = await busOf('calendar-sync');
    const stream = await calendar.ensureStream(NATS_TOPOLOGY['calendar-sync'].publishes);
    const { nc, refusals } = await rawAs('bookings');
    const subject = `${PREFIX}.${calendarBusyUpdatedEvent.subject}`;
    nc.publish(subject, JSON.stringify({ forged: true }));
    await nc.flush();
    expect(await refused(refusals, 'publish', subject)).toBeDefined();
    expect((await calendar.jsm.streams.info(stream)).state.messages).toBe(0);
  });

  it("when bookings' user tries to answer scheduling.schedule.get, then it is refused and the request finds no responder", async () => {
    const { nc, refusals } = await rawAs('bookings');
    const subject = `${PREFIX}.${scheduleGetRequest.subject}`;
    const sub = nc.subscribe(subject);
    expect(await refused(refusals, 'subscription', subject)).toBeDefined();
    await expect(sub.closed).resolves.toBeInstanceOf(PermissionViolationError);
    // Every scheduling.* request: none may be subscribed to, with a wildcard either.
    nc.subscribe(`${PREFIX}.scheduling.>`);
    expect(await refused(refusals, 'subscription', `${PREFIX}.scheduling.>`)).toBeDefined();
    const calendarSync = await busOf('calendar-sync');
    const asking = calendarSync.request(scheduleGetRequest, { organization_id: randomUUID(), schedule_id: randomUUID() });
    await expect(asking).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it("when bookings' user subscribes to scheduling's inbox or creates a stream of another service, then it is refused", async () => {
    const { nc, refusals } = await rawAs('bookings');
    nc.subscribe('_INBOX_scheduling.>');
    expect(await refused(refusals, 'subscription', '_INBOX_scheduling.>')).toBeDefined();
    nc.subscribe('_INBOX.>');
    expect(await refused(refusals, 'subscription', '_INBOX.>')).toBeDefined();
    const create = `$JS.API.STREAM.CREATE.${PREFIX}_SCHEDULING`;
    nc.publish(create, JSON.stringify({ name: `${PREFIX}_SCHEDULING`, subjects: [`${PREFIX}.scheduling.>`] }));
    expect(await refused(refusals, 'publish', create)).toBeDefined();
  });

  it("when bookings asks scheduling, then scheduling's user answers it (micro service endpoint, own inboxes)", async () => {
    const scheduling = await busOf('scheduling');
    await scheduling.serve(availabilityCheckRequest, async () => ({ available: true, reason: null, timezone: 'Europe/Berlin' }));
    await scheduling.serve(scheduleGetRequest, async () => {
      throw new AppError('SCHEDULE_NOT_FOUND', 'Schedule not found');
    });
    const bookings = await busOf('bookings');
    const now = new Date();
    const reply = await bookings.request(availabilityCheckRequest, {
      organization_id: randomUUID(),
      schedule_id: randomUUID(),
      start_time: now.toISOString(),
      end_time: new Date(now.getTime() + 1_800_000).toISOString(),
    });
    expect(reply).toMatchObject({ available: true, reason: null, timezone: 'Europe/Berlin' });
    // An error reply travels back the same way, as the AppError the endpoint threw.
    const calendarSync = await busOf('calendar-sync');
    await expect(
      calendarSync.request(scheduleGetRequest, { organization_id: randomUUID(), schedule_id: randomUUID() }),
    ).rejects.toMatchObject({
      code: 'SCHEDULE_NOT_FOUND',
    });
  });

  it("when scheduling's consumer starts before bookings' stream exists, then it waits, and receives what bookings' relay publishes", async () => {
    const schema = await kitSchema();
    opened.push(schema);
    const received: string[] = [];
    const scheduling = await busOf('scheduling');
    const { durable, stream } = NATS_TOPOLOGY.scheduling.consumes.bookings;
    const consumer = consumerTask(scheduling, {
      durable,
      stream,
      pool: schema.pool,
      retryMs: 100,
      // Every booking state event, as scheduling's projection takes them: the durable reads the whole stream.
      handlers: BOOKING_STATE_EVENTS.map((contract) => eventHandler(contract, async (event) => void received.push(event.data.booking_id))),
    });
    await consumer.start(); // the stream is not there yet: the start returns, the consumer waits
    opened.push({ close: () => consumer.stop() });

    const relay = await bookingsRelay(schema.pool);
    const booking = pendingBooking();
    await withTransaction(schema.pool, (tx) => recordEvent(tx, bookingCreatedEvent, booking, { organizationId: randomUUID() }));
    relay.wake();
    expect(await eventually(async () => (received.length > 0 ? received : undefined))).toEqual([booking.booking_id]);
    // Acked under the user's rights: nothing is left pending for redelivery.
    const info = await eventually(async () => {
      const current = await scheduling.jsm.consumers.info(scheduling.streamName(stream.name), scheduling.streamName(durable));
      return current.num_ack_pending === 0 && current.num_pending === 0 ? current : undefined;
    });
    expect(info.delivered.stream_seq).toBe(1);
  });

  it("when webhooks' user reads bookings' stream in order and asks bookings for its watermark, then it gets each event, before the sequence the watermark came with, under its reader's name only", async () => {
    const schema = await kitSchema();
    opened.push(schema);
    const relay = await bookingsRelay(schema.pool);
    const booking = pendingBooking();
    const event = await withTransaction(schema.pool, (tx) =>
      recordEvent(tx, bookingCreatedEvent, booking, { organizationId: randomUUID() }),
    );
    relay.wake();

    const webhooks = await busOf('webhooks');
    const reader = NATS_TOPOLOGY.webhooks.reads.bookings;
    const created = await streamCreated(webhooks, reader);
    const messages = await readStreamInOrder(webhooks, reader, 1n);
    opened.push({ close: () => messages.close().then(() => undefined) });
    // Asked once the event is published (an earlier test's bookings relay, on an outbox of its own, may answer too), until
    // the watermark is past it (no older transaction of the shared cluster open).
    const { rows } = await eventually(async () => {
      const found = await schema.pool.query<{ tx: string }>(
        'SELECT tx_id::text AS tx FROM outbox WHERE id = $1 AND published_at IS NOT NULL',
        [event.id],
      );
      return found.rows.length === 1 ? found : undefined;
    });
    const watermark = await eventually(async () => {
      const answer = await webhooks.request(reader.stream.watermark.request, {});
      return BigInt(answer.watermark) > BigInt(rows[0]?.tx ?? '0') ? answer : undefined;
    });
    let ours = 0;
    for await (const msg of messages) {
      if (msg.json<{ id: string }>().id === event.id) ours = msg.seq;
      if (msg.seq >= watermark.sequence) break;
    }
    // Below the watermark, so at or before the sequence it came with.
    expect(ours).toBeGreaterThan(0);
    expect(ours).toBeLessThanOrEqual(watermark.sequence);
    expect(watermark.stream_created).toBe(created);

    const { nc, refusals } = await rawAs('webhooks');
    const other = `$JS.API.CONSUMER.CREATE.${PREFIX}_BOOKINGS.${PREFIX}_scheduling-bookings`;
    nc.publish(other, JSON.stringify({ stream_name: `${PREFIX}_BOOKINGS`, config: { name: `${PREFIX}_scheduling-bookings` } }));
    expect(await refused(refusals, 'publish', other)).toBeDefined();
  });

  it("when scheduling's consumer cannot apply an event, then its user dead-letters it, and the dlq user lists, replays and discards it", async () => {
    const schema = await kitSchema();
    opened.push(schema);
    const calendarSync = await busOf('calendar-sync');
    await calendarSync.ensureStream(NATS_TOPOLOGY['calendar-sync'].publishes);
    const scheduling = await busOf('scheduling');
    let fixed = false;
    const applied: string[] = [];
    const { durable, stream } = NATS_TOPOLOGY.scheduling.consumes.calendar;
    const consumer = await startConsumer(scheduling, {
      durable,
      stream,
      pool: schema.pool,
      handlers: [
        eventHandler(calendarBusyUpdatedEvent, async () => undefined),
        eventHandler(calendarConnectionRemovedEvent, async (event) => {
          if (!fixed) throw new Error('not yet');
          applied.push(event.id);
        }),
      ],
    });
    opened.push({ close: () => consumer.stop() });
    const removed = { connection_id: randomUUID(), schedule_id: randomUUID() };
    const envelope = envelopeOf(calendarConnectionRemovedEvent.subject, removed);
    const { id } = envelope;
    await calendarSync.publish(calendarConnectionRemovedEvent.subject, envelope, id);
    await calendarSync.js.publish(calendarSync.subject(calendarConnectionRemovedEvent.subject), 'garbage', { msgID: randomUUID() });

    const admin = await rawAs(DEAD_LETTER_ADMIN_USER);
    const letters = new DeadLetters(jetstream(admin.nc), await jetstreamManager(admin.nc), PREFIX, ['scheduling']);
    const found = await eventually(async () => {
      const listed = await letters.list({ consumer: durable });
      return listed.length === 2 ? listed : undefined;
    });
    expect(found.map((letter) => [letter.reason, letter.eventId])).toEqual([
      ['failed', id],
      ['malformed', ''],
    ]);
    fixed = true;
    await letters.replay(found[0]!);
    expect(await eventually(async () => (applied.length > 0 ? applied : undefined))).toEqual([id]);
    await letters.discard(found[1]!);
    expect(await letters.list()).toEqual([]);

    // Neither may do more: the dlq user creates no stream nor sends anything but events (no request to a service),
    // bookings writes no dead letters. (It may publish every stream's events: webhooks consumes them all.)
    const create = `$JS.API.STREAM.CREATE.${PREFIX}_DLQ_BOOKINGS`;
    admin.nc.publish(create, JSON.stringify({ name: `${PREFIX}_DLQ_BOOKINGS` }));
    expect(await refused(admin.refusals, 'publish', create)).toBeDefined();
    const request = `${PREFIX}.${NATS_TOPOLOGY.scheduling.serves[0].subject}`;
    admin.nc.publish(request, 'forged');
    expect(await refused(admin.refusals, 'publish', request)).toBeDefined();
    const { nc, refusals } = await rawAs('bookings');
    const forged = `${PREFIX}.dlq.scheduling.${durable}.${calendarConnectionRemovedEvent.subject}`;
    nc.publish(forged, 'forged');
    expect(await refused(refusals, 'publish', forged)).toBeDefined();
  });
});
