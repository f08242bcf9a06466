import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { booking, feedSuite } from './support/feed-suite.js';

/** Making, replacing and removing a schedule's ICS feed. */
describe('ICS feed management', () => {
  const suite = feedSuite();
  const { organization, create, remove, feedOf, read } = suite;

  describe('POST /api/v1/schedules/{id}/ics-feed', () => {
    it('when the schedule is the organization’s, then 201 with a secret URL under PUBLIC_BASE_URL, of which only a hash is kept', async () => {
      const org = organization();
      const scheduleId = suite.neighbours.schedule(org.id);
      const response = await create(org.headers, scheduleId);
      expect(response.statusCode).toBe(201);
      const { url } = (response.json() as { data: { url: string } }).data;
      const token = /^https:\/\/book\.example\.com\/ics\/([A-Za-z0-9_-]{43})\.ics$/.exec(url)?.[1];
      expect(token).toBeDefined();
      const { rows } = await suite.running.infra.pool.query<{ organization_id: string; token_hash: Buffer; dump: string }>(
        'SELECT organization_id, token_hash, row_to_json(f)::text AS dump FROM calendar_sync.ics_feeds f WHERE schedule_id = $1',
        [scheduleId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.organization_id).toBe(org.id);
      expect(
        rows[0]?.token_hash.equals(
          createHash('sha256')
            .update(token ?? '')
            .digest(),
        ),
      ).toBe(true);
      expect(rows[0]?.dump).not.toContain(token);
    });

    it('when one schedule’s feed is made twice at once, then both succeed and the feed has one URL, the last one', async () => {
      const org = organization();
      const scheduleId = suite.neighbours.schedule(org.id, [booking()]);
      const urls = await Promise.all([feedOf(org.headers, scheduleId), feedOf(org.headers, scheduleId), feedOf(org.headers, scheduleId)]);
      const statuses = await Promise.all(urls.map(async (url) => (await read(url)).statusCode));
      expect(statuses.sort()).toEqual([200, 404, 404]);
    });

    it('when two feeds are made, then their tokens differ', async () => {
      const org = organization();
      const [a, b] = await Promise.all([
        feedOf(org.headers, suite.neighbours.schedule(org.id)),
        feedOf(org.headers, suite.neighbours.schedule(org.id)),
      ]);
      expect(a).not.toBe(b);
    });

    it('when the schedule is unknown or another organization’s, then 404 SCHEDULE_NOT_FOUND and no feed', async () => {
      const org = organization();
      const foreign = suite.neighbours.schedule(randomUUID());
      for (const scheduleId of [randomUUID(), foreign, 'not-a-uuid']) {
        const response = await create(org.headers, scheduleId);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'SCHEDULE_NOT_FOUND', error: 'Schedule not found or inactive' });
      }
      const { rows } = await suite.running.infra.pool.query('SELECT 1 FROM calendar_sync.ics_feeds WHERE schedule_id = $1', [foreign]);
      expect(rows).toEqual([]);
    });

    it('when POSTed again, then the URL is replaced: the old one is 404, the new one serves the feed', async () => {
      const org = organization();
      const scheduleId = suite.neighbours.schedule(org.id, [booking()]);
      const first = await feedOf(org.headers, scheduleId);
      expect((await read(first)).statusCode).toBe(200);
      const second = await feedOf(org.headers, scheduleId);
      expect(second).not.toBe(first);
      const old = await read(first);
      expect(old.statusCode).toBe(404);
      expect(old.json()).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
      expect((await read(second)).statusCode).toBe(200);
    });
  });

  describe('DELETE /api/v1/schedules/{id}/ics-feed', () => {
    it('when the schedule has a feed, then 200 and its URL is 404; a second DELETE is 404', async () => {
      const org = organization();
      const scheduleId = suite.neighbours.schedule(org.id, [booking()]);
      const url = await feedOf(org.headers, scheduleId);
      const deleted = await remove(org.headers, scheduleId);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ data: { schedule_id: scheduleId, deleted: true } });
      expect((await read(url)).statusCode).toBe(404);
      const again = await remove(org.headers, scheduleId);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: 'ICS feed not found', code: 'NOT_FOUND' });
    });

    it('when another organization deletes it, then 404 and the feed still serves', async () => {
      const org = organization();
      const scheduleId = suite.neighbours.schedule(org.id, [booking()]);
      const url = await feedOf(org.headers, scheduleId);
      const response = await remove(organization().headers, scheduleId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await remove(org.headers, 'not-a-uuid')).statusCode).toBe(404);
      expect((await read(url)).statusCode).toBe(200);
    });
  });
});
