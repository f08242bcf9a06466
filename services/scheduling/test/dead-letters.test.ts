import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bookingCreatedEvent, NATS_TOPOLOGY } from '@app/contracts';
import { organizationHeaders, PortForwarder } from '@app/service-testing';
import { dlq, listedDeadLetters } from './support/dlq-cli.js';
import { DAY, POLL, createSchedule, morning, publishEvent, slotStarts, startScheduling, without, type Running } from './support/harness.js';

function booking(scheduleId: string, start: string, end: string) {
  return {
    booking_id: randomUUID(),
    schedule_id: scheduleId,
    event_type_id: null,
    status: 'PENDING' as const,
    start_time: `${DAY}T${start}:00.000Z`,
    end_time: `${DAY}T${end}:00.000Z`,
    version: 1,
  };
}

/** The dead letter of event `id`, once `dlq list` shows it. */
async function deadLetterOf(running: Running, id: string) {
  await expect.poll(async () => (await listedDeadLetters(running)).some((letter) => letter.eventId === id), POLL).toBe(true);
  return (await listedDeadLetters(running)).find((letter) => letter.eventId === id)!;
}

describe('dead letters of the bookings.booking.* consumer, with the dlq command', () => {
  let running: Running;
  let admin: pg.Pool;
  beforeAll(async () => {
    running = await startScheduling();
    admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
  });
  afterAll(async () => {
    await admin?.end();
    await running?.stop();
  });

  it('when the database refuses an event, then it is dead-lettered with its subject, headers, error and deliveries; after the fix a replay applies it', async () => {
    const schedule = await createSchedule(running, organizationHeaders(), morning);
    const poison = booking(schedule.id, '10:00', '10:30');
    // A constraint the projection's write violates: the kind of bug a later migration fixes.
    const constraint = `dlq_test_${randomBytes(4).toString('hex')}`;
    await admin.query(
      `ALTER TABLE scheduling.booking_intervals ADD CONSTRAINT ${constraint} CHECK (booking_id <> '${poison.booking_id}') NOT VALID`,
    );
    const id = await publishEvent(running, bookingCreatedEvent, poison);
    await publishEvent(running, bookingCreatedEvent, booking(schedule.id, '11:30', '12:00'));
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('11:30')); // the consumer moved on

    const letter = await deadLetterOf(running, id);
    expect(letter).toMatchObject({
      service: 'scheduling',
      consumer: 'scheduling-bookings',
      subject: `${running.infra.config.NATS_PREFIX}.${bookingCreatedEvent.subject}`,
      type: bookingCreatedEvent.subject,
      reason: 'failed',
      deliveries: 1,
    });
    expect(letter.error).toContain(constraint);
    const shown = JSON.parse(await dlq(running, 'show', String(letter.seq))) as {
      headers: Record<string, string[]>;
      payload: { id: string; data: unknown };
    };
    expect(shown.headers).toMatchObject({
      'Dlq-Msg-Id': [id],
      'Dlq-Stream': [`${running.infra.config.NATS_PREFIX}_BOOKINGS`],
      'Dlq-Deliveries': ['1'],
    });
    expect(shown.payload).toMatchObject({ id, data: poison });

    await admin.query(`ALTER TABLE scheduling.booking_intervals DROP CONSTRAINT ${constraint}`);
    expect(await dlq(running, 'replay', String(letter.seq))).toContain(`replayed scheduling ${letter.seq}`);
    await expect.poll(() => slotStarts(running, schedule.id, DAY), POLL).toEqual(without('10:00', '11:30'));
    expect((await listedDeadLetters(running)).map((listed) => listed.eventId)).not.toContain(id);
  });

  it('when an event is malformed, then it is dead-lettered, not silently terminated, and can be discarded', async () => {
    const before = (await listedDeadLetters(running)).map((letter) => letter.seq);
    await running.neighbour.publish(bookingCreatedEvent.subject, 'not an envelope', randomUUID());
    await expect
      .poll(async () => (await listedDeadLetters(running)).filter((letter) => !before.includes(letter.seq)), POLL)
      .toHaveLength(1);
    const letter = (await listedDeadLetters(running)).find((listed) => !before.includes(listed.seq))!;
    expect(letter).toMatchObject({ reason: 'malformed', type: bookingCreatedEvent.subject, eventId: '' });
    expect(letter.error).toMatch(/not an event envelope/);
    expect(await dlq(running, 'list')).toContain(`${letter.seq}\tscheduling/scheduling-bookings\t${letter.subject}`);

    expect(await dlq(running, 'discard', String(letter.seq))).toContain(`discarded scheduling ${letter.seq}`);
    expect((await listedDeadLetters(running)).map((listed) => listed.seq)).not.toContain(letter.seq);
  });
});

describe('the bookings.booking.* consumer during a database outage', () => {
  let running: Running;
  let forwarder: PortForwarder;
  beforeAll(async () => {
    // The service reaches Postgres through a port of the test's own, which the test cuts: an unreachable database.
    forwarder = await PortForwarder.open();
    forwarder.pointAt(...databaseAddress());
    const database = new URL(inject('databaseUrl'));
    database.host = `127.0.0.1:${forwarder.port}`;
    // A fast retry schedule: 20 ms doubling to 100 ms, so the old limit (20 deliveries) passes within seconds.
    running = await startScheduling(undefined, { DATABASE_URL: database.toString() }, { consumerRetry: { initialMs: 20, maxMs: 100 } });
  });
  afterAll(async () => {
    await running?.stop();
    await forwarder?.close();
  });

  it('when the database is unreachable for longer than the old 20 deliveries, then the event is applied once it is back, never dead-lettered', async () => {
    const organizationId = randomUUID();
    const schedule = await createSchedule(running, organizationHeaders(organizationId), morning);
    forwarder.cut();
    const id = await publishEvent(running, bookingCreatedEvent, booking(schedule.id, '09:30', '10:00'), { organizationId });
    const { durable, stream } = NATS_TOPOLOGY.scheduling.consumes.bookings;
    const deliveries = async () =>
      (await running.infra.bus.jsm.consumers.info(running.infra.bus.streamName(stream.name), running.infra.bus.streamName(durable)))
        .delivered.consumer_seq;
    await expect.poll(deliveries, { timeout: 20_000, interval: 100 }).toBeGreaterThan(25);

    forwarder.pointAt(...databaseAddress());
    await expect.poll(() => slotStarts(running, schedule.id, DAY), { timeout: 20_000, interval: 100 }).toEqual(without('09:30'));
    expect((await listedDeadLetters(running)).map((letter) => letter.eventId)).not.toContain(id);
  });
});

function databaseAddress(): [string, number] {
  const database = new URL(inject('databaseUrl'));
  return [database.hostname, Number(database.port || 5432)];
}
