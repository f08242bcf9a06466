import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProviders, type FakeAccount } from '@app/service-testing';
import { TokenBox } from '../src/clients/calendar-reader.js';
import type { ProviderEventInput, WriteTarget } from '../src/clients/calendar-writer.js';
import { MicrosoftTokenClient } from '../src/clients/microsoft-token.client.js';
import { outlookCalendarWriter } from '../src/clients/outlook-calendar-writer.js';
import { ProviderError, ReauthRequiredError, RetryLaterError } from '../src/clients/provider-errors.js';
import { OWN_EVENT_MARKS } from '../src/domain/own-events.js';

const fake = new FakeProviders();
/** Short enough that a late answer (below) outlasts it, long enough for a local server on a busy machine. */
const TIMEOUT_MS = 1000;
let writer: ReturnType<typeof outlookCalendarWriter>;

beforeAll(async () => {
  await fake.start();
  const env = fake.env();
  const tokens = new MicrosoftTokenClient({
    tokenUrl: env.MICROSOFT_TOKEN_URL ?? '',
    clientId: env.MICROSOFT_CLIENT_ID,
    clientSecret: env.MICROSOFT_CLIENT_SECRET,
    timeoutMs: TIMEOUT_MS,
  });
  writer = outlookCalendarWriter({
    graphUrl: env.GRAPH_API_URL ?? '',
    tokens,
    timeoutMs: TIMEOUT_MS,
    retry: { attempts: 4, baseMs: 10, maxWaitMs: 2000 },
  });
});
afterAll(() => fake.stop());

function target(account: FakeAccount, calendarId = 'primary'): WriteTarget {
  const tokens = new TokenBox({
    accessToken: account.accessToken,
    refreshToken: account.refreshToken,
    expiresAt: new Date(Date.now() + 3600_000),
  });
  return { tokens, calendarId, signal: AbortSignal.timeout(30_000) };
}

function booking(overrides: Partial<ProviderEventInput> = {}): ProviderEventInput {
  return {
    bookingId: randomUUID(),
    scheduleId: randomUUID(),
    start: '2026-03-10T09:00:00.000Z',
    end: '2026-03-10T09:30:00.000Z',
    summary: 'Booking: Ada Lovelace',
    attendeeEmail: 'ada@example.com',
    ...overrides,
  };
}

function ownRequests(account: FakeAccount, route: string) {
  return fake.http.requestsTo(route).filter((r) => r.authorization?.startsWith(`Bearer ${account.id}-`));
}

describe('Outlook calendar writer', () => {
  it('when an event is inserted in the default calendar, then /me/events has it with times, summary, attendee and marks', async () => {
    const account = fake.account();
    const event = booking();
    const id = await writer.insert(target(account), event);
    expect(ownRequests(account, 'graph.events.create').map((r) => new URL(r.url).pathname)).toEqual(['/graph/v1.0/me/events']);
    expect(account.outlook.get('primary')).toEqual([
      {
        id,
        showAs: 'busy',
        start: event.start,
        end: event.end,
        subject: 'Booking: Ada Lovelace',
        attendees: [{ emailAddress: { address: 'ada@example.com' }, type: 'required' }],
        singleValueExtendedProperties: [
          { id: OWN_EVENT_MARKS.graphBookingId, value: event.bookingId },
          { id: OWN_EVENT_MARKS.graphScheduleId, value: event.scheduleId },
        ],
      },
    ]);
  });

  it('when an event is inserted in another calendar, then it goes to /me/calendars/{id}/events, without attendee if none', async () => {
    const account = fake.account();
    account.outlook.set('work cal', []);
    await writer.insert(target(account, 'work cal'), booking({ attendeeEmail: null }));
    expect(ownRequests(account, 'graph.events.create').map((r) => new URL(r.url).pathname)).toEqual([
      '/graph/v1.0/me/calendars/work%20cal/events',
    ]);
    expect(account.outlook.get('work cal')?.[0]?.attendees).toEqual([]);
  });

  it('when looking up by booking id, then the event of that booking in that calendar is found, and nothing else', async () => {
    const account = fake.account();
    account.outlook.set('other', []);
    const event = booking();
    const id = await writer.insert(target(account), event);
    await writer.insert(target(account), booking());
    expect(await writer.findByBookingId(target(account), event.bookingId)).toBe(id);
    expect(await writer.findByBookingId(target(account), randomUUID())).toBeNull();
    expect(await writer.findByBookingId(target(account, 'other'), event.bookingId)).toBeNull();
  });

  it('when an event is updated, then it moves; once it is gone, update answers false', async () => {
    const account = fake.account();
    const event = booking();
    const id = await writer.insert(target(account), event);
    const moved = { ...event, start: '2026-03-11T14:00:00.000Z', end: '2026-03-11T15:00:00.000Z', summary: 'Intro call' };
    expect(await writer.update(target(account), id, moved)).toBe(true);
    expect(ownRequests(account, 'graph.event.update').map((r) => new URL(r.url).pathname)).toEqual([
      `/graph/v1.0/me/events/${encodeURIComponent(id)}`,
    ]);
    expect(account.outlook.get('primary')).toMatchObject([{ id, start: moved.start, end: moved.end, subject: 'Intro call' }]);
    account.outlook.set('primary', []);
    expect(await writer.update(target(account), id, moved)).toBe(false);
  });

  it('when an event is removed, then it is gone, and removing it again (404) counts as done', async () => {
    const account = fake.account();
    const id = await writer.insert(target(account), booking());
    await writer.remove(target(account), id);
    expect(account.outlook.get('primary')).toEqual([]);
    await expect(writer.remove(target(account), id)).resolves.toBeUndefined();
    expect(ownRequests(account, 'graph.event.delete')).toHaveLength(2);
  });

  it('when Graph answers 429 with a short Retry-After to an update, then the update waits for it and succeeds', async () => {
    const account = fake.account();
    const event = booking();
    const id = await writer.insert(target(account), event);
    fake.http.script('graph.event.update', {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'TooManyRequests', message: 'throttled' } },
    });
    expect(await writer.update(target(account), id, { ...event, summary: 'Moved' })).toBe(true);
    const tries = ownRequests(account, 'graph.event.update');
    expect(tries).toHaveLength(2);
    expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(account.outlook.get('primary')).toMatchObject([{ id, subject: 'Moved' }]);
  });

  it('when Graph answers 429 to an insert, then it is not sent again blindly: RetryLaterError carries the wait', async () => {
    const account = fake.account();
    fake.http.script('graph.events.create', {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'TooManyRequests', message: 'throttled' } },
    });
    const error: unknown = await writer.insert(target(account), booking()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryLaterError);
    expect((error as RetryLaterError).delayMs).toBe(1000);
    expect(ownRequests(account, 'graph.events.create')).toHaveLength(1);
  });

  it('when Graph answers 429 with a Retry-After beyond what a write waits, then RetryLaterError carries it', async () => {
    const account = fake.account();
    fake.http.script('graph.event.delete', {
      status: 429,
      headers: { 'retry-after': '120' },
      body: { error: { code: 'TooManyRequests', message: 'throttled' } },
    });
    const error: unknown = await writer.remove(target(account), 'AAMkAGsome=').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryLaterError);
    expect((error as RetryLaterError).delayMs).toBe(120_000);
  });

  it('when the access token is refused (401), then it is refreshed once, the write succeeds and the new tokens are kept', async () => {
    const account = fake.account();
    const write = target(account);
    fake.expireAccessToken(account);
    const id = await writer.insert(write, booking());
    expect(account.outlook.get('primary')?.map((e) => e.id)).toEqual([id]);
    expect(ownRequests(account, 'graph.events.create').map((r) => r.authorization)).toEqual([
      `Bearer ${account.id}-at-0`,
      `Bearer ${account.accessToken}`,
    ]);
    expect(write.tokens.changed).toBe(true);
    expect(write.tokens.current).toMatchObject({ accessToken: account.accessToken, refreshToken: account.refreshToken });
  });

  it('when the refresh token is refused too, then ReauthRequiredError', async () => {
    const account = fake.account();
    fake.revokeRefreshTokens(account);
    fake.expireAccessToken(account);
    await expect(writer.insert(target(account), booking())).rejects.toBeInstanceOf(ReauthRequiredError);
    expect(account.outlook.get('primary')).toBeUndefined();
  });

  it('when a create succeeds but its answer comes after the time limit, then insert fails once and the event is found by booking id', async () => {
    const account = fake.account();
    const event = booking();
    fake.graphEvents.answerLate('graph.events.create', TIMEOUT_MS * 3);
    const error: unknown = await writer.insert(target(account), event).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(ownRequests(account, 'graph.events.create')).toHaveLength(1);
    const made = account.outlook.get('primary') ?? [];
    expect(made).toHaveLength(1);
    expect(await writer.findByBookingId(target(account), event.bookingId)).toBe(made[0]?.id);
  });

  it('when Graph refuses a write for good (403), then ProviderError with the status, not retried', async () => {
    const account = fake.account();
    fake.http.script('graph.event.update', { status: 403, body: { error: { code: 'ErrorAccessDenied', message: 'no' } } });
    const error: unknown = await writer.update(target(account), 'AAMkAGsome=', booking()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(403);
    expect(ownRequests(account, 'graph.event.update')).toHaveLength(1);
  });
});
