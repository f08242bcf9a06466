import { describe, expect, it } from 'vitest';
import { decideAfterSync } from '../../src/domain/sync-decision.js';

const now = new Date('2026-03-10T12:00:00Z');
const policy = { intervalMs: 300_000, random: () => 0.5 };
const after = (ms: number) => new Date(now.getTime() + ms);

describe('decideAfterSync', () => {
  it('when every calendar was read, then active, synced now, next at the interval, windows published', () => {
    expect(decideAfterSync({ kind: 'read', readCalendars: 2, failedCalendars: [] }, 3, now, policy)).toEqual({
      status: 'active',
      lastError: null,
      lastSyncedAt: now,
      nextSyncAt: after(300_000),
      retryNotBefore: null,
      consecutiveFailures: 0,
      publish: true,
    });
  });

  it('when some calendars failed, then error naming them, last known windows published, retried with backoff', () => {
    const decision = decideAfterSync(
      { kind: 'read', readCalendars: 1, failedCalendars: [{ calendarId: 'team', error: 'notFound' }] },
      0,
      now,
      policy,
    );
    expect(decision).toMatchObject({
      status: 'error',
      lastError: 'Could not read calendar team: notFound',
      lastSyncedAt: undefined,
      publish: true,
      consecutiveFailures: 1,
    });
    expect(decision.nextSyncAt).toEqual(after(22_500));
  });

  it('when no calendar could be read, then nothing is published', () => {
    expect(
      decideAfterSync({ kind: 'read', readCalendars: 0, failedCalendars: [{ calendarId: 'a', error: 'x' }] }, 0, now, policy).publish,
    ).toBe(false);
  });

  it('when the refresh token was refused, then reauth_required and polling stops', () => {
    expect(decideAfterSync({ kind: 'reauth', message: 'invalid_grant' }, 0, now, policy)).toMatchObject({
      status: 'reauth_required',
      nextSyncAt: null,
      publish: false,
    });
  });

  it('when the provider asked to wait, then the next sync and any manual one wait that long', () => {
    expect(decideAfterSync({ kind: 'retry_later', delayMs: 120_000, message: '429' }, 1, now, policy)).toMatchObject({
      status: 'error',
      nextSyncAt: after(120_000),
      retryNotBefore: after(120_000),
      consecutiveFailures: 2,
      publish: false,
    });
  });

  it('when the sync failed, then error with a growing backoff and nothing published', () => {
    const first = decideAfterSync({ kind: 'failed', message: '502' }, 0, now, policy);
    const fourth = decideAfterSync({ kind: 'failed', message: '502' }, 3, now, policy);
    expect(first).toMatchObject({ status: 'error', lastError: '502', publish: false });
    expect(fourth.nextSyncAt?.getTime()).toBeGreaterThan(first.nextSyncAt?.getTime() ?? 0);
  });
});
