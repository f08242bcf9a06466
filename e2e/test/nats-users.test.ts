import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { dataEnvelope, errorBodySchema, eventTypeRecordSchema, SERVICE_NAMES, slotsResponseSchema } from '@app/contracts';
import { natsAuthorizationConfig } from '@app/service-kit';
import { NatsBinary, startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';

const attendee = { name: 'Ada Lovelace', email: 'ada@example.com' };

/**
 * The seven real processes on a nats-server of this file's own that knows only the users generated from the topology
 * (as compose and Kubernetes run it): each process connects as its own user, and everything that crosses NATS
 * still works: bookings asks scheduling and events, bookings' relay publishes and scheduling's consumer applies it.
 */
describe('the system on NATS with one user per service', () => {
  const users = Object.fromEntries(
    SERVICE_NAMES.map((service) => [service, { user: service, password: randomBytes(18).toString('base64url') }]),
  );
  const serviceEnv = Object.fromEntries(
    Object.entries(users).map(([service, { user, password }]) => [service, { NATS_USER: user, NATS_PASSWORD: password }]),
  );
  const nats = startedForTests(
    async () => {
      const nats = new NatsBinary(natsAuthorizationConfig(inject('natsPrefix'), users as Parameters<typeof natsAuthorizationConfig>[1]));
      await nats.start();
      return nats;
    },
    { stop: (started) => started.remove() },
  );
  // Scheduling starts first (stack order): its consumers wait for the streams bookings and calendar-sync create.
  const stack = startedForTests(() => startE2eStack({ NATS_URL: nats.url, CALENDAR_SYNC_POLL_MS: '3600000' }, {}, { serviceEnv }), {
    timeout: 120_000,
  });

  it("when a booking is made, then bookings' checks are answered by scheduling and events, scheduling's slots learn of it, and the change feed shows it", async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const eventType = await stack.call('POST', '/api/v1/event-types', { key, body: { title: 'Consult', duration: 15 } });
    expect(eventType.status).toBe(201);
    const eventTypeId = dataEnvelope(eventTypeRecordSchema).parse(eventType.body).data.id;
    const slot = quarterHour(40); // tomorrow 10:00 UTC
    const booked = await stack.call('POST', '/api/v1/bookings', {
      key,
      body: { schedule_id: scheduleId, event_type_id: eventTypeId, ...slot, attendee },
    });
    expect(booked.status).toBe(201);
    // A refusal travels back over NATS too: an unknown event type is the events service's 404, not a 503.
    const unknown = await stack.call('POST', '/api/v1/bookings', {
      key,
      body: { schedule_id: scheduleId, event_type_id: '00000000-0000-4000-8000-000000000000', ...quarterHour(41), attendee },
    });
    expect(errorBodySchema.parse(unknown.body).code).not.toBe('UPSTREAM_UNAVAILABLE');
    expect(unknown.status).toBe(404);

    const date = slot.start_time.slice(0, 10);
    const starts = async () => {
      const response = await stack.call('GET', `/api/bookings/slots?scheduleId=${scheduleId}&startDate=${date}&endDate=${date}`);
      return slotsResponseSchema.parse(response.body).days.flatMap((day) => day.slots.map((s) => new Date(s.start).toISOString()));
    };
    expect(await starts()).toContain(quarterHour(39).start_time);
    await expect.poll(starts, { timeout: 15_000, interval: 200 }).not.toContain(slot.start_time);
    // The change feed under its users too: webhooks' in-order readers and watermark asks, the publishers' answers.
    const bookingId = (booked.body as { data: { id: string } }).data.id;
    const changes = async () => {
      const response = await stack.call('GET', '/api/v1/changes', { key });
      return (response.body as { data: { type: string; data: { id: string } }[] }).data.map((change) => `${change.type} ${change.data.id}`);
    };
    await expect
      .poll(changes, { timeout: 15_000, interval: 200 })
      .toEqual([
        expect.stringMatching(/^api_key\.created /),
        `schedule.created ${scheduleId}`,
        `event_type.created ${eventTypeId}`,
        `booking.created ${bookingId}`,
      ]);
  });
});
