import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationPromotedEvent } from '@app/contracts';
import { client, createEvent, data, list, openEvent, startEvents, type Client, type Running } from './support/harness.js';

/*
 * Two replicas of the events service (two apps, one database) cancelling at once: promotion is done in the
 * cancellation's transaction under the event's row lock, which serialises them whichever replica serves each.
 */
let replicas: [Running, Running];
beforeAll(async () => {
  replicas = [await startEvents(), await startEvents()];
});
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
});

const CONFIRMED = 50;
const WAITING = 65;

async function register(api: Client, eventId: string, n: number): Promise<Record<string, unknown>> {
  const reply = await api.post(`/api/v1/events/${eventId}/registrations`, { name: `Guest ${n}`, email: `guest${n}@example.com` });
  expect(reply.status).toBe(201);
  return data(reply);
}

async function allRegistrations(api: Client, eventId: string, status: string): Promise<Record<string, unknown>[]> {
  return list(await api.get(`/api/v1/events/${eventId}/registrations?status=${status}&limit=200`));
}

describe('waitlist promotion across two replicas', () => {
  it('when 50 confirmed registrations are cancelled at once through both, then the first 50 waiting are promoted, each once, in order', async () => {
    const [first, second] = replicas;
    const apis = [client(first), client(second)] as const;
    const organizationId = apis[0].organizationId;
    const both = [apis[0], client(second, organizationId)] as const;
    const eventId = String((await createEvent(both[0], openEvent({ slots: CONFIRMED, waitlist: true }))).id);
    const confirmed: Record<string, unknown>[] = [];
    for (let n = 0; n < CONFIRMED; n += 1) confirmed.push(await register(both[n % 2]!, eventId, n));
    const waiting: Record<string, unknown>[] = [];
    for (let n = 0; n < WAITING; n += 1) waiting.push(await register(both[n % 2]!, eventId, CONFIRMED + n));
    expect(waiting.map((registration) => registration.waitlist_position)).toEqual(waiting.map((_r, index) => index + 1));

    const cancellations = await Promise.all(
      confirmed.map((registration, n) => both[n % 2]!.delete(`/api/v1/events/${eventId}/registrations/${String(registration.id)}`)),
    );

    // Each answer's status and code, so a refusal under load says what it was.
    expect(cancellations.map((reply) => [reply.status, reply.body.code])).toEqual(confirmed.map(() => [200, undefined]));
    const nowConfirmed = await allRegistrations(both[0], eventId, 'confirmed');
    const stillWaiting = await allRegistrations(both[1], eventId, 'waitlisted');
    // No place given twice: exactly the slots are taken, by the head of the list; no waiting registration skipped.
    expect(nowConfirmed.map((registration) => registration.id).sort()).toEqual(
      waiting
        .slice(0, CONFIRMED)
        .map((r) => r.id)
        .sort(),
    );
    expect(nowConfirmed.every((registration) => registration.waitlist_position === null)).toBe(true);
    expect(stillWaiting.map((registration) => [registration.id, registration.waitlist_position])).toEqual(
      waiting.slice(CONFIRMED).map((registration) => [registration.id, registration.waitlist_position]),
    );
    expect(data(await both[1].get(`/api/v1/events/${eventId}?include_counts=true`)).counts).toEqual({
      registrations: CONFIRMED,
      remaining: 0,
      waitlisted: WAITING - CONFIRMED,
      checked_in: 0,
    });
    // Exactly one promoted event per promotion, written in the order the promotions committed: the list's order.
    const { rows } = await first.infra.pool.query<{ id: string }>(
      `SELECT payload->'data'->>'id' AS id FROM outbox WHERE subject = $1 AND organization_id = $2::uuid ORDER BY seq`,
      [registrationPromotedEvent.subject, organizationId],
    );
    expect(rows.map((row) => row.id)).toEqual(waiting.slice(0, CONFIRMED).map((registration) => registration.id));
  });
});
