import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, startedForTests } from '@app/service-testing';
import { createClient, isApiError, type ApiClient, type PathsFor } from '../src/index.js';
import { failure } from './support/failure.js';
import { openSchedule, quarterHour, startSdkStack } from './support/sdk-stack.js';

describe('SDK behaviour against the real stack', () => {
  const sdk = startedForTests(startSdkStack, { timeout: 120_000 });

  describe('admin API', () => {
    it('when a second key is created, then it works until it is revoked, then it is a typed 401', async () => {
      const organization = await sdk.admin.POST('/admin/v1/organizations', { body: { name: 'Keys' } });
      expect(organization.data.data).toMatchObject({ name: 'Keys', timezone: 'UTC', api_key: expect.stringMatching(/^sk_/) });

      const { data } = await sdk.admin.POST('/admin/v1/organizations/{id}/api-keys', {
        params: { path: { id: organization.data.data.id } },
        body: { name: 'ci' },
      });
      const second = createClient({ baseUrl: sdk.baseUrl, apiKey: data.data.key });
      expect((await second.GET('/api/v1/schedules')).response.status).toBe(200);
      await sdk.admin.DELETE('/admin/v1/api-keys/{id}', { params: { path: { id: data.data.id } } });

      const refused = await eventually(
        async () =>
          await second.GET('/api/v1/schedules').then(
            () => undefined,
            (e: unknown) => e,
          ),
        10_000,
      );
      expect(isApiError(refused) && refused.code).toBe('UNAUTHORIZED');
    });
  });

  describe('pings', () => {
    it('when each service is pinged through the gateway, then it answers for the organization', async () => {
      const api = await sdk.organization('Ping');
      const paths = [
        '/api/v1/ping/bookings',
        '/api/v1/ping/scheduling',
        '/api/v1/ping/catalog',
        '/api/v1/ping/events',
        '/api/v1/ping/calendar-sync',
      ] satisfies PathsFor<'get'>[];

      const services = await Promise.all(paths.map(async (path) => (await api.GET(path)).data.data.service));

      expect(services).toEqual(['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync']);
    });
  });

  describe('typed errors', () => {
    let api: ApiClient;
    beforeAll(async () => {
      api = await sdk.organization('Errors');
    });

    it('when a booking does not exist, then a 404 NOT_FOUND names its operation and request id', async () => {
      const error = await failure(
        api.GET('/api/v1/bookings/{id}', { params: { path: { id: randomUUID() } }, headers: { 'x-request-id': 'sdk-404-check' } }),
      );

      expect(isApiError(error, 'get', '/api/v1/bookings/{id}')).toBe(true);
      expect(isApiError(error, 'get', '/api/v1/schedules/{id}')).toBe(false);
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'sdk-404-check', details: [] });
      expect(error.body).toEqual({ error: error.message, code: 'NOT_FOUND' });
    });

    it('when a body fails validation, then the 400 carries VALIDATION_ERROR and the failed fields', async () => {
      const error = await failure(api.POST('/api/v1/schedules', { body: { name: 'Too short', slot_duration: 3 } }));

      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringContaining('slot_duration') });
      expect(error.details).toContainEqual({ path: 'slot_duration', message: expect.any(String) });
    });

    it('when a slot is taken, then the operation’s own error body is typed through isApiError', async () => {
      const scheduleId = await openSchedule(api);
      const booking = { schedule_id: scheduleId, ...quarterHour(8), attendee: { name: 'Ann', email: 'ann@example.com' } };
      await api.POST('/api/v1/bookings', { body: booking });

      const error: unknown = await api.POST('/api/v1/bookings', { body: booking }).catch((e: unknown) => e);

      if (!isApiError(error, 'post', '/api/v1/bookings')) throw new Error('expected an ApiError of POST /api/v1/bookings');
      expect(error.body?.code).toBe('SLOT_TAKEN');
      expect(error.message).toBe('This time slot is already booked');
    });

    it('when the key is wrong, then the 401 is typed UNAUTHORIZED', async () => {
      const stranger = createClient({ baseUrl: sdk.baseUrl, apiKey: 'sk_not_a_real_key' });

      expect(await failure(stranger.GET('/api/v1/schedules'))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    });
  });

  describe('change feed', () => {
    it('when changes are made, then changes() yields each once in order, resumes after a stored cursor, and follows new ones with a long poll', async () => {
      const api = await sdk.organization('Feed');
      const scheduleId = await openSchedule(api);
      const booked = await api.POST('/api/v1/bookings', {
        body: { schedule_id: scheduleId, ...quarterHour(20), attendee: { name: 'Ann', email: 'ann@example.com' } },
      });

      const seen = await eventually(async () => {
        const items = [];
        for await (const change of api.changes({ limit: 1 })) items.push(change);
        // The organization's first change is its first key's creation.
        return items.length >= 3 ? items : undefined;
      }, 15_000);
      const onlyBookings = [];
      for await (const change of api.changes({ types: ['booking.created'] })) onlyBookings.push(change.id);
      const stop = new AbortController();
      const following = (async () => {
        for await (const change of api.changes({ after: seen.at(-1)?.cursor, follow: true, wait: 5, signal: stop.signal })) {
          stop.abort();
          return change;
        }
        return undefined;
      })();
      const confirmed = await api.PATCH('/api/v1/bookings/{id}', {
        params: { path: { id: booked.data.data.id } },
        body: { status: 'CONFIRMED' },
      });
      const next = await following;

      expect(seen.map((change) => [change.type, change.data.id])).toEqual([
        ['api_key.created', expect.any(String)],
        ['schedule.created', scheduleId],
        ['booking.created', booked.data.data.id],
      ]);
      expect(onlyBookings).toEqual([seen[2]?.id]);
      expect(next).toMatchObject({
        type: 'booking.status_changed',
        data: { id: booked.data.data.id, status: confirmed.data.data.status },
        previous_attributes: { status: 'PENDING' },
      });
    });
  });

  describe('pagination', () => {
    it('when a list spans three pages, then pages follow next_cursor and paginate yields every record once', async () => {
      const api = await sdk.organization('Pages');
      const ids: string[] = [];
      for (const title of ['One', 'Two', 'Three', 'Four', 'Five']) {
        ids.push((await api.POST('/api/v1/event-types', { body: { title, duration: 15 } })).data.data.id);
      }

      const pages = [];
      for await (const page of api.pages('/api/v1/event-types', { params: { query: { limit: 2 } } })) pages.push(page);
      const records = [];
      for await (const eventType of api.paginate('/api/v1/event-types', { params: { query: { limit: 2 } } })) records.push(eventType.id);
      const fromThird = [];
      for await (const eventType of api.paginate('/api/v1/event-types', { params: { query: { limit: 2, offset: 3 } } })) {
        fromThird.push(eventType.title);
      }

      expect(pages.map((p) => [p.meta.offset, p.data.length, p.meta.hasMore])).toEqual([
        [0, 2, true],
        [2, 2, true],
        [4, 1, false],
      ]);
      expect(records).toHaveLength(5);
      expect([...records].sort()).toEqual([...ids].sort());
      expect(records).toEqual(pages.flatMap((p) => p.data.map((t) => t.id)));
      expect(fromThird).toHaveLength(2);
    });
  });

  describe('idempotency', () => {
    it('when a booking is created twice with one explicit key, then the second answer is the first, marked replayed', async () => {
      const api = await sdk.organization('Idempotent');
      const scheduleId = await openSchedule(api);
      const body = { schedule_id: scheduleId, ...quarterHour(12), attendee: { name: 'Ann', email: 'ann@example.com' } };
      const key = randomUUID();

      const first = await api.POST('/api/v1/bookings', { body, headers: { 'Idempotency-Key': key } });
      const second = await api.POST('/api/v1/bookings', { body, params: { header: { 'idempotency-key': key } } });
      const reused = await failure(
        api.POST('/api/v1/bookings', { body: { ...body, ...quarterHour(13) }, headers: { 'Idempotency-Key': key } }),
      );

      expect([first.replayed, second.replayed]).toEqual([false, true]);
      expect(second.data.data.id).toBe(first.data.data.id);
      expect(reused).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    });

    it('when the answer to a create is lost (503), then the retry with the generated key gets the created record back', async () => {
      const key = await sdk.organizationKey('Lost answer');
      let lose = true;
      const api = createClient({
        baseUrl: sdk.baseUrl,
        apiKey: key,
        retries: { baseDelayMs: 10 },
        // The create goes through; its answer is replaced by a 503, as a proxy timing out would.
        fetch: async (request) => {
          const response = await fetch(request);
          if (!lose || request.method !== 'POST' || !request.url.endsWith('/api/v1/bookings')) return response;
          lose = false;
          await response.body?.cancel();
          return Response.json({ error: 'Upstream timed out', code: 'UPSTREAM_UNAVAILABLE' }, { status: 503 });
        },
      });
      const scheduleId = await openSchedule(api);

      const booking = await api.POST('/api/v1/bookings', {
        body: { schedule_id: scheduleId, ...quarterHour(20), attendee: { name: 'Ann', email: 'ann@example.com' } },
      });

      expect(lose).toBe(false);
      expect(booking.replayed).toBe(true);
      const list = await api.GET('/api/v1/bookings', { params: { query: { schedule_id: scheduleId } } });
      expect(list.data.data.map((b) => b.id)).toEqual([booking.data.data.id]);
    });
  });
});
