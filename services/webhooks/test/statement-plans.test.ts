import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingCreatedEvent } from '@app/contracts';
import { FileDatabase, preparedPlans, type PreparedPlans } from '@app/service-testing';
import { Receiver } from './support/receiver.js';
import { bookingState, client, data, list, POLL, publishEvent, startWebhooks, type Running } from './support/harness.js';

/**
 * Each delivered event runs the consumer's inbox insert and the fan-out, each failed attempt its record: named
 * statements, parsed once per connection (with the outbox relay's, Postgres' CPU per delivered booking at 200 a second
 * went 3.1 → 2.8 ms). One connection, so the session the work ran on is the one read (`preparedPlans`). The claim and
 * the success recording stay unnamed (`namedStatement` says why).
 */
describe('statements of the delivery path', () => {
  const EVENTS = 8;
  let running: Running;
  let receiver: Receiver;
  // A database of its own: a replica claims every due delivery of its database, and one of another file's failing
  // endpoints then ran the attempt statement here once more than this file's deliveries account for.
  const database = FileDatabase.create();

  beforeAll(async () => {
    [running, receiver] = await Promise.all([startWebhooks({ DATABASE_POOL_SIZE: '1', DATABASE_URL: database.url }), Receiver.start()]);
  });
  afterAll(async () => {
    await running.stop();
    await receiver.close();
    await database.drop();
  });

  const prepared = (start: string) => preparedPlans(running.infra.pool, `${start}%`);
  const plans = (rows: PreparedPlans[]) => rows.reduce((sum, row) => sum + row.generic + row.custom, 0);

  it('when events are delivered one after another, then the inbox, fan-out and attempt statements are prepared once and reused', async () => {
    const api = client(running);
    const created = await api.post('/api/v1/webhook-endpoints', { url: receiver.url });
    expect(created.status).toBe(201);
    receiver.answer([500]); // the first attempt fails: its record is the attempt statement's
    for (let event = 0; event < EVENTS; event += 1) {
      // One at a time: each event is applied on its own (the inbox's one-row statement) and delivered before the next.
      const id = await publishEvent(running, bookingCreatedEvent, bookingState(), api.organizationId);
      await expect.poll(() => receiver.of(id).length, POLL).toBe(event === 0 ? 2 : 1);
    }
    await expect
      .poll(
        async () => (await api.get(`/api/v1/webhook-endpoints/${String(data(created).id)}/deliveries?status=succeeded`)).body.meta,
        POLL,
      )
      .toMatchObject({ total: EVENTS });

    const fanOut = await prepared('INSERT INTO webhook_deliveries');
    expect(fanOut).toHaveLength(1);
    expect(plans(fanOut)).toBe(EVENTS);
    // Past Postgres' five trial plans, a statement whose plan cannot depend on its values keeps the generic one.
    expect(fanOut[0]?.generic).toBeGreaterThanOrEqual(1);
    const inbox = await prepared('INSERT INTO inbox (consumer, event_id) VALUES');
    expect(inbox).toHaveLength(1);
    expect(plans(inbox)).toBe(EVENTS);
    const attempt = await prepared('UPDATE webhook_deliveries%SET attempts = attempts + 1');
    expect(attempt).toHaveLength(1);
    // Each failed attempt ran it once: the scripted 500, and any attempt a loaded machine let time out.
    const delivered = list(await api.get(`/api/v1/webhook-endpoints/${String(data(created).id)}/deliveries?limit=50`));
    const failedAttempts = delivered.reduce((sum, delivery) => sum + Number(delivery.attempts) - 1, 0);
    expect(failedAttempts).toBeGreaterThanOrEqual(1);
    expect(plans(attempt)).toBe(failedAttempts);
  });
});
