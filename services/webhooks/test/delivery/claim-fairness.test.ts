import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileDatabase } from '@app/service-testing';
import { claimDueDeliveries } from '../../src/db/delivery.repository.js';
import { DeliveryLoop } from '../../src/workers/delivery.worker.js';
import { client, data, startWebhooks, type Running } from '../support/harness.js';

/**
 * The claim shares the replica's attempts between organizations: one with a backlog spread over many endpoints
 * cannot keep another's fresh delivery waiting. The service's own delivery loop is stopped, so the claims below are
 * the test's own; the database is this file's own, so no other file's due deliveries take part in them.
 */
describe('claiming due deliveries', () => {
  let running: Running;
  const database = FileDatabase.create();

  beforeAll(async () => {
    await database.ensure();
    running = await startWebhooks({ DATABASE_URL: database.url });
    // Its polls would claim the rows below too (on a loaded machine a start poll can come after them): no loop but the test.
    await Promise.all((running.background ?? []).filter((task) => task instanceof DeliveryLoop).map((loop) => loop.stop()));
  });
  afterAll(async () => {
    await running.stop();
    await database.drop();
  });

  /** An endpoint of `organizationId` with `count` due deliveries, the oldest `ageSeconds` old. */
  async function endpointWithBacklog(organizationId: string, count: number, ageSeconds: number): Promise<string> {
    const created = await client(running, organizationId).post('/api/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' });
    const endpointId = String(data(created).id);
    await running.infra.pool.query(
      `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, event_type, body, next_attempt_at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, gen_random_uuid(), 'booking.created', '{}',
              now() - make_interval(secs => $4::float8) + i * interval '1 ms'
         FROM generate_series(1, $3::int) i`,
      [organizationId, endpointId, count, ageSeconds],
    );
    return endpointId;
  }

  it("when one organization's backlog spans many endpoints, then another organization's newer delivery is in the next claim", async () => {
    const busy = randomUUID();
    for (let endpoint = 0; endpoint < 8; endpoint += 1) await endpointWithBacklog(busy, 200, 60);
    // Due a second ago: one due only a millisecond after its insert may not be due yet when the claim's statement starts.
    const quiet = await endpointWithBacklog(randomUUID(), 1, 1);

    const claimed = await claimDueDeliveries(running.infra.pool, 4, 4, 30_000);

    expect(claimed).toHaveLength(4);
    expect(claimed.map((claim) => claim.endpointId)).toContain(quiet);
  });
});
