import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { bookingRecordSchema, dataEnvelope, scheduleRecordSchema } from '@app/contracts';
import { startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { createOrganization, quarterHour } from '../support/organization.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const POLL = { timeout: 15_000, interval: 100 };

/** Webhooks through the gateway: endpoints made with an API key, events of the real services arriving signed. */
describe('webhooks through the gateway', () => {
  const receiver = startedForTests(() => WebhookReceiver.start(), { stop: (started) => started.close() });
  const stack = startedForTests(() => startE2eStack({ CALENDAR_SYNC_POLL_MS: '3600000' }), { timeout: 120_000 });

  const ofType = (type: string) =>
    receiver.received
      .map((delivery) => ({ ...delivery, event: JSON.parse(delivery.body) as Record<string, unknown> }))
      .filter(({ event }) => event.type === type);

  it("when an organization books, then its endpoint receives schedule.created and booking.created, signed; another organization's never arrive", async () => {
    const { key } = await createOrganization(stack, 'Hooks');
    const { key: otherKey } = await createOrganization(stack, 'Other hooks');
    const endpoint = await stack.call('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: receiver.url, events: ['schedule.created', 'booking.created'] },
    });
    expect(endpoint.status).toBe(201);
    const { id, secret } = (endpoint.body as { data: { id: string; secret: string } }).data;
    await stack.call('POST', '/api/v1/webhook-endpoints', {
      key: otherKey,
      body: { url: `${receiver.url}/other`, events: ['schedule.created'] },
    });

    const availability = WEEK.map((day) => ({ day, start: '00:00', end: '24:00' }));
    const schedule = await stack.call('POST', '/api/v1/schedules', {
      key,
      body: { name: 'Desk', timezone: 'UTC', slot_duration: 15, availability },
    });
    const scheduleId = dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id;
    const otherSchedule = await stack.call('POST', '/api/v1/schedules', { key: otherKey, body: { name: 'Elsewhere', availability } });
    const otherScheduleId = dataEnvelope(scheduleRecordSchema).parse(otherSchedule.body).data.id;
    const booked = await stack.call('POST', '/api/v1/bookings', {
      key,
      body: { schedule_id: scheduleId, ...quarterHour(44), attendee: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(booked.status).toBe(201);
    const bookingId = dataEnvelope(bookingRecordSchema).parse(booked.body).data.id;

    await expect
      .poll(() => ofType('booking.created').filter(({ event }) => (event.data as { id?: string }).id === bookingId).length, POLL)
      .toBe(1);
    // The payload is the booking as GET shows it (event-carried state), not the internal event's fields.
    const shown = await stack.call('GET', `/api/v1/bookings/${bookingId}`, { key });
    const delivered = ofType('booking.created').find(({ event }) => (event.data as { id?: string }).id === bookingId);
    expect(delivered?.event.data).toEqual((shown.body as { data: unknown }).data);
    const verifier = new Webhook(secret);
    const recordIdOf = (event: Record<string, unknown>) => {
      const data = event.data as { id?: string };
      return data.id;
    };
    const mine = receiver.received.filter((delivery) =>
      [scheduleId, bookingId].includes(String(recordIdOf(JSON.parse(delivery.body) as Record<string, unknown>))),
    );
    expect(mine).toHaveLength(2);
    for (const delivery of mine) {
      const event = verifier.verify(delivery.body, delivery.headers as Record<string, string>) as { id: string };
      expect(delivery.headers['webhook-id']).toBe(event.id);
    }
    expect(ofType('schedule.created').some(({ event }) => (event.data as { id: string }).id === scheduleId)).toBe(true);
    await expect
      .poll(() => ofType('schedule.created').some(({ event }) => (event.data as { id: string }).id === otherScheduleId), POLL)
      .toBe(true);
    // The other organization's schedule reached its own endpoint only: signed with its secret, not with ours.
    const theirs = ofType('schedule.created').find(({ event }) => (event.data as { id: string }).id === otherScheduleId);
    expect(() => verifier.verify(theirs?.body ?? '', theirs?.headers as Record<string, string>)).toThrow();

    const deliveries = await stack.call('GET', `/api/v1/webhook-endpoints/${id}/deliveries?status=succeeded`, { key });
    expect((deliveries.body as { data: { event_type: string }[] }).data.map((delivery) => delivery.event_type).sort()).toEqual([
      'booking.created',
      'schedule.created',
    ]);
    expect((await stack.call('GET', `/api/v1/webhook-endpoints/${id}/secret`, { key: otherKey })).status).toBe(404);
  });
});
