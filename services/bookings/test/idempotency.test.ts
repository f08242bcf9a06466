import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createSchedule, futureDay, interval } from './support/fixtures.js';
import { call, newOrganization, startStack, tally, type Reply, type Stack } from './support/stack.js';

describe('POST /api/v1/bookings with Idempotency-Key', () => {
  let stack: Stack;
  const day = futureDay(20);
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  const post = (organizationId: string, body: unknown, key?: string): Promise<Reply> =>
    call(stack.bookings, organizationId, 'POST', '/api/v1/bookings', body, key ? { 'idempotency-key': key } : {});
  const count = async (organizationId: string) => (await call(stack.bookings, organizationId, 'GET', '/api/v1/bookings')).body.meta?.total;

  async function arrange() {
    const organizationId = newOrganization();
    return { organizationId, scheduleId: await createSchedule(stack, organizationId), key: `key-${randomUUID()}` };
  }

  it('when the same key comes with the same body, then the first response is replayed and one booking exists', async () => {
    const { organizationId, scheduleId, key } = await arrange();
    const body = bookingBody(scheduleId, interval(day, 9 * 60));
    const first = await post(organizationId, body, key);
    const second = await post(organizationId, { ...body, attendee: { email: body.attendee.email, name: body.attendee.name } }, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(organizationId)).toBe(1);
  });

  it('when the same key comes with another body, then it is a 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const { organizationId, scheduleId, key } = await arrange();
    await post(organizationId, bookingBody(scheduleId, interval(day, 9 * 60)), key);
    const reply = await post(organizationId, bookingBody(scheduleId, interval(day, 10 * 60)), key);
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count(organizationId)).toBe(1);
  });

  it('when 20 requests with one key arrive at once, then one booking is created and all get its response', async () => {
    const { organizationId, scheduleId, key } = await arrange();
    const body = bookingBody(scheduleId, interval(day, 11 * 60));
    const replies = await Promise.all(Array.from({ length: 20 }, () => post(organizationId, body, key)));
    expect(tally(replies)).toEqual({ '201': 20 });
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect(await count(organizationId)).toBe(1);
  });

  it('when concurrent requests share a key but differ in body, then one is created and the others are refused', async () => {
    const { organizationId, scheduleId, key } = await arrange();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(organizationId, bookingBody(scheduleId, interval(day, 12 * 60 + i * 30)), key)),
    );
    expect(tally(replies)).toEqual({ '201': 1, '409 IDEMPOTENCY_KEY_REUSED': 9 });
    expect(await count(organizationId)).toBe(1);
  });

  it('when two organizations use the same key, then each gets its own booking', async () => {
    const a = await arrange();
    const b = await arrange();
    const first = await post(a.organizationId, bookingBody(a.scheduleId, interval(day, 9 * 60)), 'shared-key');
    const second = await post(b.organizationId, bookingBody(b.scheduleId, interval(day, 9 * 60)), 'shared-key');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.data.id).not.toBe(second.body.data.id);
  });

  it('when the first response was a refusal, then the refusal is replayed even after the slot frees up', async () => {
    const { organizationId, scheduleId, key } = await arrange();
    const times = interval(day, 15 * 60);
    const holder = await post(organizationId, bookingBody(scheduleId, times));
    const body = bookingBody(scheduleId, times, { title: 'second' });
    const refused = await post(organizationId, body, key);
    expect(refused.status).toBe(409);
    await call(stack.bookings, organizationId, 'DELETE', `/api/v1/bookings/${String(holder.body.data.id)}`);
    const replayed = await post(organizationId, body, key);
    expect(replayed.status).toBe(409);
    expect(replayed.body).toEqual({ error: 'This time slot is already booked', code: 'SLOT_TAKEN' });
    expect((await post(organizationId, body, `${key}-new`)).status).toBe(201);
  });

  it('when the key is older than 24 hours, then it is forgotten and can be used afresh', async () => {
    const { organizationId, scheduleId, key } = await arrange();
    await post(organizationId, bookingBody(scheduleId, interval(day, 16 * 60)), key);
    await stack.bookings.infra.pool.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [key]);
    const reply = await post(organizationId, bookingBody(scheduleId, interval(day, 17 * 60)), key);
    expect(reply.status).toBe(201);
    expect(reply.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(organizationId)).toBe(2);
  });
});
