import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeIdempotentCreates } from '@app/service-testing';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization, tally, type Reply } from './support/harness.js';

describe('POST /api/v1/bookings with Idempotency-Key', () => {
  const suite = bookingsSuite();
  const day = futureDay(20);

  const post = (organizationId: string, body: unknown, key?: string): Promise<Reply> =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body, key ? { 'idempotency-key': key } : {});
  const count = async (organizationId: string) => (await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings')).body.meta?.total;

  function arrange() {
    return { organizationId: newOrganization(), scheduleId: newScheduleId(), key: `key-${randomUUID()}` };
  }

  describeIdempotentCreates([
    {
      name: 'POST /api/v1/bookings',
      async arrange() {
        const { organizationId, scheduleId } = arrange();
        const bodies = { same: bookingBody(scheduleId, interval(day, 9 * 60)), other: bookingBody(scheduleId, interval(day, 10 * 60)) };
        return {
          create: (key, body = 'same') => post(organizationId, bodies[body], key),
          count: async () => (await count(organizationId)) ?? 0,
        };
      },
    },
  ]);

  it('when the same key comes with an equivalent body (other key order), then it is a replay', async () => {
    const { organizationId, scheduleId, key } = arrange();
    const body = bookingBody(scheduleId, interval(day, 9 * 60));
    const first = await post(organizationId, body, key);
    const second = await post(organizationId, { ...body, attendee: { email: body.attendee.email, name: body.attendee.name } }, key);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await count(organizationId)).toBe(1);
  });

  it('when concurrent requests share a key but differ in body, then one is created and the others are refused', async () => {
    const { organizationId, scheduleId, key } = arrange();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(organizationId, bookingBody(scheduleId, interval(day, 12 * 60 + i * 30)), key)),
    );
    expect(tally(replies)).toEqual({ '201': 1, '409 IDEMPOTENCY_KEY_REUSED': 9 });
    expect(await count(organizationId)).toBe(1);
  });

  it('when the first response was a refusal, then the refusal is replayed even after the slot frees up', async () => {
    const { organizationId, scheduleId, key } = arrange();
    const times = interval(day, 15 * 60);
    const holder = await post(organizationId, bookingBody(scheduleId, times));
    const body = bookingBody(scheduleId, times, { title: 'second' });
    const refused = await post(organizationId, body, key);
    expect(refused.status).toBe(409);
    await call(suite.bookings, organizationId, 'DELETE', `/api/v1/bookings/${String(holder.body.data.id)}`);
    const replayed = await post(organizationId, body, key);
    expect(replayed.status).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual({ error: 'This time slot is already booked', code: 'SLOT_TAKEN' });
    expect((await post(organizationId, body, `${key}-new`)).status).toBe(201);
  });

  it('when the key is older than 24 hours, then it is forgotten and can be used afresh', async () => {
    const { organizationId, scheduleId, key } = arrange();
    const body = bookingBody(scheduleId, interval(day, 16 * 60));
    await post(organizationId, body, key);
    expect((await post(organizationId, body, key)).headers['idempotent-replayed']).toBe('true');
    await suite.bookings.infra.pool.query(`UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE scope = $1`, [
      organizationId,
    ]);
    const reply = await post(organizationId, bookingBody(scheduleId, interval(day, 17 * 60)), key);
    expect(reply.status).toBe(201);
    expect(reply.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(organizationId)).toBe(2);
  });
});
