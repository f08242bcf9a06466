import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bookingCreatedEvent, scheduleCreatedEvent, type Change } from '@app/contracts';
import { recordEvent } from '@app/service-kit';
import { changes, feedOf, scheduleState, walk } from './support/feed.js';
import { FeedProducers, type Recorded } from './support/feed-producers.js';
import { bookingRecord, bookingState, client, startWebhooks, type Client, type Running } from './support/harness.js';

const prefix = `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
let running: Running;
let producers: FeedProducers;

beforeAll(async () => {
  running = await startWebhooks({}, { natsPrefix: prefix });
  producers = await FeedProducers.start(prefix);
});
afterAll(async () => {
  await producers?.stop();
  await running?.stop();
});

/** One change of `organizationId` in the bookings stream or the scheduling stream. */
function change(stream: 'bookings' | 'scheduling', organizationId: string): Recorded {
  if (stream === 'scheduling') return { contract: scheduleCreatedEvent, data: scheduleState(), organizationId };
  const state = bookingState();
  return { contract: bookingCreatedEvent, data: { ...state, record: bookingRecord(state) }, organizationId };
}

/**
 * A writer: `count` transactions one after another (each waits for the one before to commit, as a client that sends
 * its next request after the answer), alternating between the two services' outboxes, every third one with two events.
 * Returns the ids in the order they were recorded.
 */
async function writer(index: number, count: number, organizationId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const stream = (index + n) % 2 === 0 ? 'bookings' : 'scheduling';
    const together = n % 3 === 0 ? [change(stream, organizationId), change(stream, organizationId)] : [change(stream, organizationId)];
    ids.push(...(await producers.recordTogether(together)));
  }
  return ids;
}

/** A writer that holds its transaction open a while after recording, so later transactions commit first. */
async function slowWriter(count: number, organizationId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const { contract, data } = change('bookings', organizationId);
    ids.push(
      await producers.transaction(contract, async (tx) => {
        const event = await recordEvent(tx, contract, data, { organizationId });
        await new Promise((resolve) => setTimeout(resolve, 150));
        return event.id;
      }),
    );
  }
  return ids;
}

/** Reads the feed with long polls until it has seen `expected` items (or time is up), as an integrator mirroring it. */
async function follow(api: Client, done: () => number | null): Promise<Change[]> {
  const seen: Change[] = [];
  let after: string | null = null;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const expected = done();
    if (expected !== null && seen.length >= expected) break;
    const page = await changes(api, { after: after ?? undefined, wait: 1, limit: 7 });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    seen.push(...page.items);
    after = page.meta.next_cursor;
  }
  return seen;
}

function expectInOrder(feed: string[], recorded: string[]): void {
  const positions = recorded.map((id) => feed.indexOf(id));
  expect(positions.every((position) => position >= 0)).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}

// The feed waits for every open write transaction of the cluster (other suites' too): room for one to end.
describe('the change feed under concurrent writers', { timeout: 60_000 }, () => {
  it("when many writers race over two services while a reader follows, then the reader sees every change once, never out of the final order, and each writer's changes in the order they committed", async () => {
    const api = client(running);
    let expected: number | null = null;
    const reading = follow(api, () => expected);

    const written = await Promise.all([
      ...Array.from({ length: 6 }, (_, index) => writer(index, 12, api.organizationId)),
      slowWriter(6, api.organizationId),
    ]);
    expected = written.flat().length;
    const followed = await reading;
    const final = (await walk(api)).items.map((item) => item.id);

    expect(final).toHaveLength(expected);
    expect(new Set(final).size).toBe(expected);
    expect(followed.map((item) => item.id)).toEqual(final);
    expect(new Set(final)).toEqual(new Set(written.flat()));
    for (const ids of written) expectInOrder(final, ids);
  });

  it('when a stream is deleted and made again (its sequences start over), then the feed reads the new one from its start, loses and repeats nothing', async () => {
    const api = client(running);
    const before = [
      ...(await producers.recordTogether([change('bookings', api.organizationId)])),
      ...(await producers.recordTogether([change('scheduling', api.organizationId)])),
    ];
    await feedOf(api, before.length);

    await producers.recreateStream(bookingCreatedEvent);
    const after: string[] = [];
    for (let n = 0; n < 6; n += 1)
      after.push(...(await producers.recordTogether([change(n % 2 === 0 ? 'bookings' : 'scheduling', api.organizationId)])));

    const items = await feedOf(api, before.length + after.length);
    expect(items.map((item) => item.id)).toEqual([...before, ...after]);
  });

  it('when the service restarts while changes keep coming, then the feed loses none, repeats none, keeps their order, and cursors of the first run resume on the next', async () => {
    const api = client(running);
    let stopWriting = false;
    const writing = (async () => {
      const ids: string[] = [];
      for (let n = 0; n < 400 && !stopWriting; n += 1) {
        ids.push(...(await producers.recordTogether([change(n % 2 === 0 ? 'bookings' : 'scheduling', api.organizationId)])));
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      return ids;
    })();
    const before = await feedOf(api, 10);
    const cursor = before.at(-1)?.cursor ?? null;

    await running.stop();
    await new Promise((resolve) => setTimeout(resolve, 500)); // changes committed while no replica runs
    running = await startWebhooks({}, { natsPrefix: prefix });
    await new Promise((resolve) => setTimeout(resolve, 500));
    stopWriting = true;
    const ids = await writing;

    const restarted = client(running, api.organizationId);
    const all = await feedOf(restarted, ids.length);
    const resumed = await walk(restarted, { after: cursor });

    expect(all.map((item) => item.id)).toEqual(ids);
    expect(resumed.items.map((item) => item.id)).toEqual(ids.slice(before.length));
  });
});
