import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  bookingCreatedEvent,
  bookingRescheduledEvent,
  bookingStatusChangedEvent,
  bookingUpdatedEvent,
  calendarBookingEventChangedEvent,
  calendarBusyUpdatedEvent,
  scheduleCreatedEvent,
  scheduleUpdatedEvent,
  apiKeyCreatedEvent,
  apiKeyRevokedEvent,
  webhookPayloadSchema,
  type ApiKeyRecord,
} from '@app/contracts';
import { recordEvent } from '@app/service-kit';
import { publishDomainEvent } from '@app/service-testing';
import { changes, feedOf, scheduleState, walk } from './support/feed.js';
import { FeedProducers } from './support/feed-producers.js';
import { bookingRecord, bookingState, client, data, POLL, startWebhooks, type Running } from './support/harness.js';
import { Receiver } from './support/receiver.js';

const prefix = `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
let running: Running;
let producers: FeedProducers;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  // Ingesters linger far longer than a read catches up (1 s) while no read waits: every read here finds the changes
  // committed before it only because a read that waits has them stored at once (FeedIngester.hurry).
  running = await startWebhooks({}, { natsPrefix: prefix, tuning: { feedLingerMs: 5000 } });
  producers = await FeedProducers.start(prefix);
});
afterAll(async () => {
  await producers?.stop();
  await running?.stop();
  await receiver?.close();
});

/**
 * From the webhooks service's /metrics: the watermark requests it has sent to `stream`'s publisher so far, and the
 * batches and stream messages of `stream` it has stored in the change feed.
 */
async function feedMetrics(service: Running, stream: string): Promise<{ asks: number; batches: number; messages: number }> {
  const metrics = await service.app.inject({ url: '/metrics' });
  expect(metrics.statusCode).toBe(200);
  const sum = (matches: (line: string) => boolean) =>
    metrics.body
      .split('\n')
      .filter(matches)
      .reduce((total, line) => total + Number(line.split(' ').at(-1)), 0);
  const ofStream = (name: string) => (line: string) =>
    line.startsWith(`${name}{`) && line.includes(`stream="${prefix}_${stream.toUpperCase()}"`);
  return {
    asks: sum((line) => line.startsWith('nats_request_duration_seconds_count{') && line.includes(`subject="${stream}.feed.watermark"`)),
    batches: sum(ofStream('change_feed_stored_batches_total')),
    messages: sum(ofStream('change_feed_stored_messages_total')),
  };
}

/** A booking's created event, as the bookings service records it. */
function booked(overrides: Record<string, unknown> = {}) {
  const state = bookingState(overrides);
  return { ...state, record: bookingRecord(state) };
}

// The feed waits for every open write transaction of the cluster (other suites' too): room for one to end.
describe('GET /api/v1/changes', { timeout: 60_000 }, () => {
  it('when changes commit one after another in two services, then the feed has each once, in that order, with its webhook id, type, occurred_at and data', async () => {
    const api = client(running);
    const schedule = scheduleState();
    const booking = booked({ schedule_id: schedule.id });
    const ids = [
      await producers.record(scheduleCreatedEvent, schedule, api.organizationId),
      await producers.record(bookingCreatedEvent, booking, api.organizationId),
      await producers.record(scheduleUpdatedEvent, { ...scheduleState({ ...schedule, name: 'Front desk' }) }, api.organizationId),
      // An internal event of a public stream is no change.
      await producers.record(
        calendarBusyUpdatedEvent,
        {
          connection_id: randomUUID(),
          schedule_id: schedule.id,
          range: { start: '2031-03-03T00:00:00.000Z', end: '2031-03-04T00:00:00.000Z' },
          windows: [],
          synced_at: '2031-03-01T09:00:00.000Z',
        },
        api.organizationId,
      ),
      // Nor is write-back's state of a booking's provider event (the booking's record shows it).
      await producers.record(
        calendarBookingEventChangedEvent,
        {
          booking_id: booking.booking_id,
          schedule_id: schedule.id,
          connection_id: randomUUID(),
          provider: 'outlook',
          event_id: null,
          status: 'pending',
          last_error: null,
          version: 1,
        },
        api.organizationId,
      ),
      await producers.record(bookingCreatedEvent, booked({ schedule_id: schedule.id }), api.organizationId),
    ];

    const items = await feedOf(api, 4);

    expect(items.map((item) => item.id)).toEqual([ids[0], ids[1], ids[2], ids[5]]);
    expect(items.map((item) => item.type)).toEqual(['schedule.created', 'booking.created', 'schedule.updated', 'booking.created']);
    expect(items[1]?.data).toEqual(booking.record);
    // A schedule event's data is its record; an update's previous_attributes stand beside it, not in it.
    expect(items[2]?.data).toEqual({ ...schedule, name: 'Front desk' });
    expect(items.every((item) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(item.occurred_at))).toBe(true);
  });

  it('when an endpoint is subscribed, then its webhook carries the same id, type, occurred_at, data and previous_attributes as the feed item', async () => {
    const api = client(running);
    await api.post('/api/v1/webhook-endpoints', { url: receiver.url });
    const before = bookingState({ status: 'PENDING', version: 1 });
    const after = { ...before, status: 'CONFIRMED' as const, version: 2 };
    const moved = {
      ...after,
      version: 3,
      start_time: '2031-03-04T10:00:00.000Z',
      end_time: '2031-03-04T10:30:00.000Z',
    };
    await producers.record(bookingCreatedEvent, { ...before, record: bookingRecord(before) }, api.organizationId);
    const confirmed = await producers.record(
      bookingStatusChangedEvent,
      { ...after, record: bookingRecord(after), previous_status: 'PENDING', previous_attributes: { status: 'PENDING' } },
      api.organizationId,
    );
    const rescheduled = await producers.record(
      bookingRescheduledEvent,
      {
        ...moved,
        record: bookingRecord(moved),
        previous_start_time: before.start_time,
        previous_end_time: before.end_time,
        previous_attributes: { start_time: before.start_time, end_time: before.end_time },
      },
      api.organizationId,
    );

    const items = await feedOf(api, 3);
    await expect
      .poll(() => receiver.received.filter((r) => [confirmed, rescheduled].includes(String(r.headers['webhook-id']))).length, {
        timeout: 10_000,
      })
      .toBe(2);

    for (const id of [confirmed, rescheduled]) {
      const delivered = receiver.received.find((r) => r.headers['webhook-id'] === id);
      const { cursor: _cursor, ...item } = items.find((candidate) => candidate.id === id) ?? {};
      expect(JSON.parse(delivered?.body ?? '{}')).toEqual(item);
    }
    expect(items.find((item) => item.id === confirmed)?.previous_attributes).toEqual({ status: 'PENDING' });
    expect(items.find((item) => item.id === rescheduled)?.previous_attributes).toEqual({
      start_time: before.start_time,
      end_time: before.end_time,
    });
    expect(items[0]).not.toHaveProperty('previous_attributes');
  });

  it('when an event written before producers wrote previous_attributes arrives, then they are read from its previous_* fields', async () => {
    const api = client(running);
    const state = bookingState({ status: 'CONFIRMED', version: 2 });
    await producers.record(
      bookingStatusChangedEvent,
      { ...state, record: bookingRecord(state), previous_status: 'PENDING' },
      api.organizationId,
    );
    const [item] = await feedOf(api, 1);
    expect(item?.previous_attributes).toEqual({ status: 'PENDING' });
  });

  it('when the feed is read right after changes committed, without waiting, then the page already has them', async () => {
    const api = client(running);
    for (let round = 0; round < 5; round += 1) {
      const booking = await producers.record(bookingCreatedEvent, booked(), api.organizationId);
      const schedule = await producers.record(scheduleCreatedEvent, scheduleState(), api.organizationId);
      const page = await changes(api, { limit: 200 });
      expect(page.items.slice(-2).map((item) => item.id)).toEqual([booking, schedule]);
    }
  });

  it('when read with a cursor, then it resumes right after that item; next_cursor is the last item, or after itself when nothing is new', async () => {
    const api = client(running);
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push(await producers.record(bookingCreatedEvent, booked(), api.organizationId));
    await feedOf(api, 5);

    const first = await changes(api, { limit: 2 });
    const second = await changes(api, { limit: 2, after: first.meta.next_cursor ?? '' });
    const third = await changes(api, { limit: 2, after: second.meta.next_cursor ?? '' });
    const resumed = await changes(api, { after: first.items[0]?.cursor });
    const none = await changes(api, { after: third.meta.next_cursor ?? '' });

    expect([first, second, third].map((page) => page.items.map((item) => item.id))).toEqual([
      ids.slice(0, 2),
      ids.slice(2, 4),
      ids.slice(4),
    ]);
    expect([first, second, third].map((page) => page.meta.hasMore)).toEqual([true, true, false]);
    expect(first.meta.next_cursor).toBe(first.items[1]?.cursor);
    expect(resumed.items.map((item) => item.id)).toEqual(ids.slice(1));
    expect(none).toMatchObject({ status: 200, items: [], meta: { next_cursor: third.meta.next_cursor, hasMore: false } });
    expect((await changes(client(running))).body).toEqual({ data: [], meta: { next_cursor: null, hasMore: false } });
  });

  it("when two organizations change things, then each feed has only its own, and one's cursor is CURSOR_INVALID for the other", async () => {
    const mine = client(running);
    const theirs = client(running);
    const own = await producers.record(bookingCreatedEvent, booked(), mine.organizationId);
    const other = await producers.record(bookingCreatedEvent, booked(), theirs.organizationId);
    await producers.record(bookingCreatedEvent, booked(), mine.organizationId);

    const [ownItem] = await feedOf(mine, 2);
    const [otherItem] = await feedOf(theirs, 1);

    expect((await walk(mine)).items.map((item) => item.id)).not.toContain(other);
    expect((await walk(theirs)).items.map((item) => item.id)).toEqual([other]);
    expect(ownItem?.id).toBe(own);
    const refused = await changes(mine, { after: otherItem?.cursor });
    expect(refused).toMatchObject({ status: 400, body: { code: 'CURSOR_INVALID' } });
  });

  it('when a cursor of the feed has its position edited, then it is CURSOR_INVALID rather than read as a position', async () => {
    const api = client(running);
    await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const [item] = await feedOf(api, 1);
    const payload = JSON.parse(Buffer.from(item?.cursor ?? '', 'base64url').toString('utf8')) as { k: string[] };
    const edited = { ...payload, k: [payload.k[0], String(Number(payload.k[1]) + 1), payload.k[2]] };

    const answer = await changes(api, { after: Buffer.from(JSON.stringify(edited)).toString('base64url') });

    expect(answer).toMatchObject({ status: 400, body: { code: 'CURSOR_INVALID' } });
    expect((await changes(api, { after: item?.cursor })).status).toBe(200);
  });

  it.each(['garbage', '!!!', 'eyJ2IjoxfQ', Buffer.from('{"v":2}').toString('base64url'), 'x'.repeat(1100)])(
    'when after is the malformed %s, then it is a 400 CURSOR_INVALID',
    async (after) => {
      expect(await changes(client(running), { after })).toMatchObject({ status: 400, body: { code: 'CURSOR_INVALID' } });
    },
  );

  it('when the cursor names an item no longer kept (past retention) or never stored, then it is CURSOR_INVALID', async () => {
    const api = client(running);
    await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const [old, kept] = await feedOf(api, 2);

    await running.infra.pool.query(`UPDATE feed_items SET stored_at = now() - interval '40 days' WHERE id = $1`, [old?.id]);
    // The service's own retention sweep, as it runs at its pace: the old item goes, the kept one stays.
    expect((await running.sweepRetention()).tables).toEqual({ feed_items: 1 });

    expect(await changes(api, { after: old?.cursor })).toMatchObject({ status: 400, body: { code: 'CURSOR_INVALID' } });
    expect((await changes(api, { after: kept?.cursor })).status).toBe(200);
    expect((await walk(api)).items.map((item) => item.id)).toEqual([kept?.id]);
  });

  it('when types is given, then only those types are listed', async () => {
    const api = client(running);
    const schedule = scheduleState();
    await producers.record(scheduleCreatedEvent, schedule, api.organizationId);
    const booking = await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const update = await producers.record(
      bookingUpdatedEvent,
      { ...booked(), changed: ['title'], previous_attributes: { title: null } },
      api.organizationId,
    );
    await feedOf(api, 3);

    const listed = await walk(api, { types: 'booking.created, booking.updated' });

    expect(listed.items.map((item) => item.id)).toEqual([booking, update]);
    expect(listed.items[1]?.previous_attributes).toEqual({ title: null });
  });

  it.each([
    [{ wait: 31 }, 'wait'],
    [{ wait: -1 }, 'wait'],
    [{ wait: 'soon' }, 'wait'],
    [{ limit: 201 }, 'limit'],
    [{ types: 'booking.created,webhook.test' }, 'types'],
    [{ types: 'booking.exploded' }, 'types'],
    [{ offset: 10 }, ''],
  ])('when the query is %j, then it is a 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const reply = await changes(client(running), query);
    expect(reply).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(String(reply.body.error)).toContain(field);
  });

  it('when a request waits and a change arrives, then it answers with it at once; with nothing new it answers empty when the wait is up', async () => {
    const api = client(running);
    await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const [seen] = await feedOf(api, 1);

    const started = performance.now();
    const waiting = changes(api, { after: seen?.cursor, wait: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const arrived = await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const answered = await waiting;
    const tookMs = performance.now() - started;

    expect(answered.items.map((item) => item.id)).toEqual([arrived]);
    expect(tookMs).toBeLessThan(5000);

    const idleStarted = performance.now();
    const idle = await changes(api, { after: answered.meta.next_cursor ?? '', wait: 1 });
    const idleMs = performance.now() - idleStarted;
    expect(idle).toMatchObject({ status: 200, items: [], meta: { next_cursor: answered.meta.next_cursor, hasMore: false } });
    expect(idleMs).toBeGreaterThanOrEqual(950);
    expect(idleMs).toBeLessThan(4000);
  });

  it('when changes keep coming and no read waits on the feed, then they are stored several to a batch, the publishers are asked for watermarks about once a second, and a read finds every one', async () => {
    const api = client(running);
    await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const [first] = await feedOf(api, 1);
    // The read above caught up: from the next round of watermarks on, nothing waits on the frontier.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = await feedMetrics(running, 'bookings');
    const startedMs = performance.now();
    const recording: Promise<string>[] = [];
    // One change every 10 ms, each in its own transaction, whatever a commit takes.
    while (performance.now() - startedMs < 2500) {
      recording.push(producers.record(bookingCreatedEvent, booked(), api.organizationId));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const recorded = await Promise.all(recording);
    const elapsedS = (performance.now() - startedMs) / 1000;
    const asked = (await feedMetrics(running, 'bookings')).asks - before.asks;
    // The read waits on the frontier: what the ingester holds is stored at once.
    const read = await walk(api, { after: first?.cursor });
    const after = await feedMetrics(running, 'bookings');

    expect(read.items.map((item) => item.id).sort()).toEqual([...recorded].sort());
    expect(after.messages - before.messages).toBe(recorded.length);
    // One to a batch without the linger (measured: 245 changes, 243 batches; with the service's 50 ms, about five).
    expect(recorded.length / (after.batches - before.batches)).toBeGreaterThanOrEqual(2);
    // At a waiting read's pace (every 20 ms while items wait) this was one ask per stored batch: 109 in such a run.
    expect(asked).toBeLessThanOrEqual(Math.ceil(elapsedS) + 1);
  });

  it('when an event reaches the stream late (no position, as a replayed dead letter), then it comes after what was already shown, once', async () => {
    const api = client(running);
    await producers.record(bookingCreatedEvent, booked(), api.organizationId);
    const [shown] = await feedOf(api, 1);
    const late = booked();
    const id = await publishDomainEvent(
      running.neighbour,
      bookingCreatedEvent,
      { ...late, record: late.record },
      {
        organizationId: api.organizationId,
      },
    );
    await publishDomainEvent(
      running.neighbour,
      bookingCreatedEvent,
      { ...late, record: late.record },
      { organizationId: api.organizationId, id },
    );
    // A later change makes the publishers move their watermarks on.
    const next = await producers.record(bookingCreatedEvent, booked(), api.organizationId);

    const after = await feedOf(api, 3);
    expect(after[0]?.id).toBe(shown?.id);
    expect(after.map((item) => item.id).sort()).toEqual([shown?.id, id, next].sort());
    expect((await walk(api, { after: shown?.cursor })).items.map((item) => item.id).sort()).toEqual([id, next].sort());
  });

  it('when a transaction stays open while later ones commit, then nothing after its position shows until it commits, and then it shows in its place', async () => {
    const api = client(running);
    let release = () => {};
    const held = producers.transaction(bookingCreatedEvent, async (tx) => {
      const event = await recordEvent(tx, bookingCreatedEvent, booked(), { organizationId: api.organizationId });
      await new Promise<void>((resolve) => (release = resolve));
      return event.id;
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the open transaction has its id
    const later = await producers.record(scheduleCreatedEvent, scheduleState(), api.organizationId);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect((await walk(api)).items).toEqual([]);
    release();
    const first = await held;
    const items = await feedOf(api, 2);
    expect(items.map((item) => item.id)).toEqual([first, later]);
  });

  it('when an endpoint gets a booking.updated, then previous_attributes stand beside data in its body', async () => {
    const api = client(running);
    await api.post('/api/v1/webhook-endpoints', { url: receiver.url, events: ['booking.updated'] });
    const state = bookingState();
    const record = { ...bookingRecord(state), title: 'Call' };
    const id = await producers.record(
      bookingUpdatedEvent,
      { ...state, record, changed: ['title'], previous_attributes: { title: null } },
      api.organizationId,
    );
    await expect.poll(() => receiver.received.some((r) => r.headers['webhook-id'] === id), { timeout: 10_000 }).toBe(true);
    const body = JSON.parse(receiver.received.find((r) => r.headers['webhook-id'] === id)?.body ?? '{}') as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['id', 'type', 'occurred_at', 'data', 'previous_attributes']);
    expect(body).toMatchObject({ type: 'booking.updated', data: record, previous_attributes: { title: null } });
  });
});

// The gateway's IDENTITY stream is a public stream: its events reach webhooks and the change feed like any other's.
function keyRecord(): ApiKeyRecord {
  return {
    id: randomUUID(),
    type: 'publishable',
    name: 'shop',
    prefix: 'pk_AbCdEfGhI',
    scopes: null,
    allowed_origins: ['https://shop.example.com'],
    created_at: '2031-03-01T09:00:00.000Z',
    last_used_at: null,
  };
}

describe('api_key.created and api_key.revoked (from the gateway)', { timeout: 60_000 }, () => {
  it('when the gateway publishes a key’s creation and revocation, then subscribed endpoints and the change feed get them with the key’s record', async () => {
    const api = client(running);
    const created = await api.post('/api/v1/webhook-endpoints', { url: receiver.url, events: ['api_key.created', 'api_key.revoked'] });
    expect(created.status).toBe(201);
    const secret = String(data(created).secret);
    const record = keyRecord();
    const createdId = await producers.record(apiKeyCreatedEvent, { id: record.id, type: record.type, record }, api.organizationId);
    const revokedId = await producers.record(apiKeyRevokedEvent, { id: record.id, type: record.type, record }, api.organizationId);

    await expect.poll(() => receiver.of(createdId).length + receiver.of(revokedId).length, POLL).toBe(2);
    for (const [id, type] of [
      [createdId, 'api_key.created'],
      [revokedId, 'api_key.revoked'],
    ] as const) {
      const delivery = receiver.of(id)[0]!;
      const body = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
      expect(body).toMatchObject({ id, type, data: record });
      expect(webhookPayloadSchema(type).safeParse(body).success).toBe(true);
    }

    const items = await feedOf(api, 2);
    expect(items.map((item) => [item.id, item.type, item.data])).toEqual([
      [createdId, 'api_key.created', record],
      [revokedId, 'api_key.revoked', record],
    ]);
  });
});
