import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '@app/contracts';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { createOrganization, organizationWithSchedule, quarterHour } from '../support/organization.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const POLL = { timeout: 20_000, interval: 100 };
/** Short, so a 5 s wait proves that the gateway lets a long poll outlast it. */
const UPSTREAM_TIMEOUT_MS = 3000;

interface Page {
  status: number;
  items: Change[];
  meta: { next_cursor: string | null; hasMore: boolean };
  body: unknown;
}

/** The change feed through the gateway: the real services' events, in one order across them. */
describe('GET /api/v1/changes through the gateway', () => {
  let stack: E2eStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await startE2eStack({
      CALENDAR_SYNC_POLL_MS: '3600000',
      WEBHOOKS_POLL_MS: '200',
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  async function page(key: string, query: Record<string, string | number | undefined> = {}): Promise<Page> {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, String(value)]])),
    );
    const reply = await stack.call('GET', `/api/v1/changes${params.size > 0 ? `?${params}` : ''}`, { key });
    const body = reply.body as { data?: Change[]; meta?: Page['meta'] };
    // An organization's first change is the creation of its first key (api_key.created, made with the organization):
    // these tests follow the changes they make themselves.
    const items = (body.data ?? []).filter((item) => item.type !== 'api_key.created');
    return { status: reply.status, items, meta: body.meta ?? { next_cursor: null, hasMore: false }, body: reply.body };
  }

  async function walk(key: string, after?: string | null): Promise<Change[]> {
    const items: Change[] = [];
    let cursor = after ?? null;
    for (;;) {
      const next = await page(key, { after: cursor ?? undefined, limit: 200 });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      items.push(...next.items);
      cursor = next.meta.next_cursor;
      if (!next.meta.hasMore) return items;
    }
  }

  async function feedOf(key: string, count: number): Promise<Change[]> {
    let items: Change[] = [];
    await expect
      .poll(async () => {
        items = await walk(key);
        return items.length;
      }, POLL)
      .toBeGreaterThanOrEqual(count);
    return items;
  }

  const dataOf = (reply: { body: unknown }) => (reply.body as { data: Record<string, unknown> }).data;

  it('when a booking is rescheduled, confirmed and retitled and a product renamed, then the webhook and the feed item of each carry the same previous_attributes', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    await stack.call('POST', '/api/v1/webhook-endpoints', { key, body: { url: receiver.url } });
    const slot = quarterHour(10);
    const booking = dataOf(
      await stack.call('POST', '/api/v1/bookings', {
        key,
        body: { schedule_id: scheduleId, ...slot, attendee: { name: 'Ada', email: 'ada@example.com' } },
      }),
    );
    const id = String(booking.id);
    const moved = quarterHour(12);
    expect((await stack.call('PATCH', `/api/v1/bookings/${id}`, { key, body: moved })).status).toBe(200);
    expect((await stack.call('PATCH', `/api/v1/bookings/${id}`, { key, body: { status: 'CONFIRMED' } })).status).toBe(200);
    expect((await stack.call('PATCH', `/api/v1/bookings/${id}`, { key, body: { title: 'Intro call' } })).status).toBe(200);
    const product = dataOf(await stack.call('POST', '/api/v1/products', { key, body: { name: 'Mug', price: 12.5 } }));
    expect(
      (await stack.call('PATCH', `/api/v1/products/${String(product.id)}`, { key, body: { name: 'Blue mug', price: 14 } })).status,
    ).toBe(200);

    const items = await feedOf(key, 7);
    const byType = (type: string) => items.find((item) => item.type === type);

    expect(items.map((item) => item.type)).toEqual([
      'schedule.created',
      'booking.created',
      'booking.rescheduled',
      'booking.status_changed',
      'booking.updated',
      'product.created',
      'product.updated',
    ]);
    expect(byType('booking.rescheduled')?.previous_attributes).toEqual(slot);
    expect(byType('booking.status_changed')?.previous_attributes).toEqual({ status: 'PENDING' });
    expect(byType('booking.updated')?.previous_attributes).toEqual({ title: null });
    expect(byType('product.updated')?.previous_attributes).toEqual({ name: 'Mug', price: 12.5 });
    expect(byType('booking.created')).not.toHaveProperty('previous_attributes');
    const shown = dataOf(await stack.call('GET', `/api/v1/bookings/${id}`, { key }));
    expect(byType('booking.updated')?.data).toEqual(shown);

    // The schedule was made before the endpoint: every later change reached it.
    for (const item of items.slice(1)) {
      await expect.poll(() => receiver.received.some((delivery) => delivery.headers['webhook-id'] === item.id), POLL).toBe(true);
      const delivered = receiver.received.find((delivery) => delivery.headers['webhook-id'] === item.id);
      const { cursor: _cursor, ...sameAsWebhook } = item;
      expect(JSON.parse(delivered?.body ?? '{}'), item.type).toEqual(sameAsWebhook);
    }
  });

  it("when writers race over bookings and catalog while a reader follows with long polls, then it sees every change once, in one order, each writer's in the order they were answered; no other organization's", async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const other = await createOrganization(stack, 'Elsewhere');
    const ids: string[][] = [];
    let expected: number | null = null;

    const following = (async () => {
      const seen: Change[] = [];
      let after: string | null = null;
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline && (expected === null || seen.length < expected)) {
        const next = await page(key, { after: after ?? undefined, wait: 2, limit: 9 });
        expect(next.status, JSON.stringify(next.body)).toBe(200);
        seen.push(...next.items);
        after = next.meta.next_cursor;
      }
      return seen;
    })();
    // Each writer sends its next request only after the answer to the one before, alternating bookings and catalog.
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      const mine: string[] = [];
      for (let n = 0; n < 8; n += 1) {
        if ((writer + n) % 2 === 0) {
          const reply = await stack.call('POST', '/api/v1/bookings', {
            key,
            body: { schedule_id: scheduleId, ...quarterHour(writer * 10 + n, 3), attendee: { name: 'Ada', email: 'ada@example.com' } },
          });
          expect(reply.status, JSON.stringify(reply.body)).toBe(201);
          mine.push(String(dataOf(reply).id));
        } else {
          const reply = await stack.call('POST', '/api/v1/products', { key, body: { name: `Mug ${writer}-${n}`, price: 9 } });
          expect(reply.status, JSON.stringify(reply.body)).toBe(201);
          mine.push(String(dataOf(reply).id));
        }
        await stack.call('POST', '/api/v1/products', { key: other.key, body: { name: `Theirs ${writer}-${n}`, price: 1 } });
      }
      ids[writer] = mine;
    });
    await Promise.all(writers);
    expected = ids.flat().length + 1; // and the schedule's creation
    const followed = await following;
    const final = await walk(key);

    const records = final.map((item) => String(item.data.id));
    expect(followed.map((item) => item.id)).toEqual(final.map((item) => item.id));
    expect(final).toHaveLength(expected);
    expect(new Set(final.map((item) => item.id)).size).toBe(expected);
    for (const mine of ids) {
      const positions = mine.map((id) => records.indexOf(id));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    const theirs = await walk(other.key);
    expect(theirs).toHaveLength(32);
    expect(theirs.some((item) => records.includes(String(item.data.id)))).toBe(false);
    expect(await page(key, { after: theirs[0]?.cursor })).toMatchObject({ status: 400, body: { code: 'CURSOR_INVALID' } });
  });

  it('when a request waits longer than the upstream timeout, then the gateway lets it, and a change arriving meanwhile answers it at once', async () => {
    const { key } = await createOrganization(stack, 'Waiting');
    // After the organization's first change (its key's creation): nothing is new from there.
    let head: string | null = null;
    await expect.poll(async () => (head = (await page(key)).meta.next_cursor), POLL).not.toBeNull();
    const after = head ?? undefined;
    const started = performance.now();
    const idle = await page(key, { after, wait: 5 });
    const idleMs = performance.now() - started;
    expect(idle).toMatchObject({ status: 200, items: [], meta: { next_cursor: head, hasMore: false } });
    expect(idleMs).toBeGreaterThan(UPSTREAM_TIMEOUT_MS);

    const waiting = page(key, { after, wait: 20 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const created = performance.now();
    const product = dataOf(await stack.call('POST', '/api/v1/products', { key, body: { name: 'Cup', price: 3 } }));
    const answered = await waiting;
    expect(answered.items.map((item) => item.data.id)).toEqual([product.id]);
    expect(performance.now() - created).toBeLessThan(5000);
  });

  it('when the webhooks service is killed and restarted while bookings keep coming, then the feed loses none and repeats none', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const ids: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing && n < 200; n += 1) {
        const reply = await stack.call('POST', '/api/v1/bookings', {
          key,
          body: { schedule_id: scheduleId, ...quarterHour(n, 5), attendee: { name: 'Ada', email: 'ada@example.com' } },
        });
        if (reply.status === 201) ids.push(String(dataOf(reply).id));
      }
    })();
    await feedOf(key, 10);
    const webhooks = await stack.kill('webhooks');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stack.restart(webhooks);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    writing = false;
    await writer;

    const items = await feedOf(key, ids.length + 1);
    expect(items.slice(1).map((item) => String(item.data.id))).toEqual(ids);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
  });
});
