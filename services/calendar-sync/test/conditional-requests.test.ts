import { randomUUID } from 'node:crypto';
import type { CalendarConnection } from '@app/contracts';
import { describeConditionalRequests, recordRequests } from '@app/service-testing';
import { describe, expect, it } from 'vitest';
import { calendarSyncSuite, connectionRow, createConnection, newOrganization, readConnection, waitFor } from './support/harness.js';

const suite = calendarSyncSuite();

/** A connection of an organization of its own, once its first sync (which starts at once) has finished. */
async function syncedConnection() {
  const org = newOrganization();
  const account = suite.fake.account();
  account.google.set('primary', []);
  const created = await createConnection(suite.running, org.headers, {
    provider: 'google',
    schedule_id: randomUUID(),
    credentials: account.credentials(),
  });
  const synced = () => readConnection(suite.running, org.headers, created.id);
  const first = await waitFor(async () => ((await synced()).last_synced_at ? await synced() : undefined), 'the first sync');
  return { org, connection: first, synced };
}

describeConditionalRequests([
  {
    name: 'a calendar connection',
    has: { get: true, change: true, remove: true },
    async arrange() {
      const { org, connection, synced } = await syncedConnection();
      const calls = recordRequests(suite.running.app, org.headers, `/api/v1/calendar-connections/${connection.id}`);
      let last: CalendarConnection = connection;
      return {
        get: calls.get,
        remove: calls.remove,
        state: calls.data,
        // A sync now: its answer shows a new last_synced_at.
        async change() {
          const before = last.last_synced_at;
          const requested = await suite.running.app.inject({
            method: 'POST',
            url: `/api/v1/calendar-connections/${connection.id}/sync`,
            headers: org.headers,
          });
          expect(requested.statusCode).toBe(202);
          last = await waitFor(async () => {
            const now = await synced();
            return now.last_synced_at !== before ? now : undefined;
          }, 'a sync now');
        },
      };
    },
  },
]);

describe("a calendar connection's ETag and its syncs' bookkeeping", () => {
  it('when a sync is claimed and released without a change the record shows, then the ETag stays', async () => {
    const { org, connection } = await syncedConnection();
    const calls = recordRequests(suite.running.app, org.headers, `/api/v1/calendar-connections/${connection.id}`);
    const etag = String((await calls.get({})).headers.etag);
    // What every sync attempt writes beside its result: the lease, the clock of the next attempt.
    await suite.running.infra.pool.query(
      `UPDATE calendar_sync.calendar_connections
          SET lease_token = gen_random_uuid(), lease_expires_at = now(), claimed_at = now(), next_sync_at = now() + interval '1 hour'
        WHERE id = $1`,
      [connection.id],
    );
    expect((await connectionRow(suite.running, connection.id))?.lease_token).not.toBeNull();
    expect((await calls.get({ 'if-none-match': etag })).status).toBe(304);
    expect((await calls.remove({ 'if-match': etag })).status).toBe(200);
  });
});
