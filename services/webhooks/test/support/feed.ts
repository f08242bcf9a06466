import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Change } from '@app/contracts';
import type { Client, Reply } from './harness.js';

/** A page of the feed as the test reads it. */
export interface ChangesPage {
  status: number;
  items: Change[];
  meta: { next_cursor: string | null; hasMore: boolean };
  body: Reply['body'];
}

/** GET /api/v1/changes with `query` (undefined values left out). */
export async function changes(api: Client, query: Record<string, string | number | undefined> = {}): Promise<ChangesPage> {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, String(value)]])),
  );
  const reply = await api.get(`/api/v1/changes${params.size > 0 ? `?${params}` : ''}`);
  return {
    status: reply.status,
    items: (reply.body.data ?? []) as Change[],
    meta: (reply.body.meta ?? { next_cursor: null, hasMore: false }) as ChangesPage['meta'],
    body: reply.body,
  };
}

/** Every item after `after` (from the start without it), page after page, and the cursor to resume from. */
export async function walk(
  api: Client,
  options: { after?: string | null; types?: string; limit?: number } = {},
): Promise<{ items: Change[]; cursor: string | null }> {
  const items: Change[] = [];
  let cursor = options.after ?? null;
  for (;;) {
    const page = await changes(api, { after: cursor ?? undefined, types: options.types, limit: options.limit ?? 200 });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    items.push(...page.items);
    cursor = page.meta.next_cursor;
    if (!page.meta.hasMore) return { items, cursor };
  }
}

/**
 * Waits until the feed from the start holds `count` items; returns them. Generous: a write transaction held open
 * anywhere in the cluster (another suite's) holds the feed back until it ends.
 */
export async function feedOf(api: Client, count: number, timeout = 30_000): Promise<Change[]> {
  let items: Change[] = [];
  await expect
    .poll(
      async () => {
        items = (await walk(api)).items;
        return items.length;
      },
      { timeout, interval: 100 },
    )
    .toBeGreaterThanOrEqual(count);
  return items;
}

/** A schedule as scheduling events carry it (and GET shows it). */
export function scheduleState(overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    name: 'Desk',
    timezone: 'UTC',
    slot_duration: 30,
    slot_interval: 30,
    is_active: true,
    availability: [{ day: 'monday' as const, start: '09:00', end: '17:00' }],
    date_overrides: [],
    buffer_before: 0,
    buffer_after: 0,
    minimum_notice: 0,
    seats_per_slot: 1,
    max_bookings_per_day: null,
    booking_horizon_days: null,
    public_booking: false,
    created_at: '2031-03-01T09:00:00.000Z',
    updated_at: '2031-03-01T09:00:00.000Z',
    ...overrides,
  };
}
