import { randomUUID } from 'node:crypto';
import {
  calendarConnectionCreatedEvent,
  calendarConnectionRemovedEvent,
  ICS_CALENDAR_ID,
  type CalendarConnection,
  type ListCalendarConnectionsQuery,
  type OAuthCalendarProvider,
  type ListMeta,
  type UpdateCalendarConnectionBody,
} from '@app/contracts';
import {
  AppError,
  checkTargetUrl,
  eventContextOf,
  invalidInput,
  listPage,
  notFound,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import * as connections from '../db/connection.repository.js';
import { calendarConnectionRecord } from '../domain/calendar-connection.record.js';
import { sealFeedUrl, type SealedFeed } from '../domain/connection-feed.js';
import { sealTokens, type CalendarTokens, type SealedTokens } from '../domain/connection-tokens.js';
import type { UseCaseContext } from './context.js';

/** A Google or Outlook account with its tokens, or an ICS feed by its URL. */
export type NewConnectionInput =
  | {
      provider: OAuthCalendarProvider;
      scheduleId: string;
      calendarIds: string[];
      /** The calendar bookings are written to; null = read only. */
      writeCalendarId: string | null;
      tokens: CalendarTokens;
    }
  | { provider: 'ics'; scheduleId: string; url: string };

const connectionNotFound = () => notFound('Calendar connection');

/** Creates a connection for an active schedule of the caller's organization; its first sync starts at once. */
export async function createConnection(ctx: UseCaseContext, caller: Caller, input: NewConnectionInput): Promise<CalendarConnection> {
  const id = randomUUID();
  const credentials = await sealedCredentials(ctx, id, input);
  const schedule = await ctx.scheduling.requireSchedule(caller.organizationId, input.scheduleId, caller.requestId);
  const record = await ctx.prisma.$transaction(async (tx) => {
    const created = await connections.insertConnection(tx, {
      id,
      organizationId: caller.organizationId,
      provider: input.provider,
      scheduleId: schedule.id,
      calendarIds: input.provider === 'ics' ? [ICS_CALENDAR_ID] : input.calendarIds,
      writeCalendarId: input.provider === 'ics' ? null : input.writeCalendarId,
      timeZone: schedule.timezone,
      credentials,
    });
    // One record for the event and the answer.
    const record = calendarConnectionRecord(created);
    const data = {
      connection_id: id,
      schedule_id: created.scheduleId,
      provider: input.provider,
      calendar_ids: created.calendarIds,
      record,
    };
    await recordEvent(tx, calendarConnectionCreatedEvent, data, eventContextOf(caller));
    return record;
  });
  ctx.relay.wake();
  ctx.wakeSync();
  return record;
}

/** The tokens, or the feed URL once it follows the webhooks' address rules (a 400 naming url, before the schedule is asked). */
async function sealedCredentials(ctx: UseCaseContext, id: string, input: NewConnectionInput): Promise<SealedTokens | SealedFeed> {
  if (input.provider !== 'ics') return sealTokens(ctx.ring, id, input.tokens);
  return sealFeedUrl(ctx.ring, id, await checkTargetUrl(input.url, ctx.icsTargets.policy, ctx.icsTargets.resolve));
}

export async function getConnection(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<CalendarConnection>> {
  const row = await connections.findConnection(ctx.prisma, caller.organizationId, recordId(rawId, connectionNotFound));
  if (!row) throw connectionNotFound();
  return { record: calendarConnectionRecord(row), version: row.version };
}

export async function listConnections(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListCalendarConnectionsQuery,
): Promise<{ items: CalendarConnection[]; meta: ListMeta }> {
  const filter = { scheduleId: query.schedule_id?.toLowerCase(), provider: query.provider, status: query.status };
  const page = listPage(connections.CONNECTION_LIST, { organizationId: caller.organizationId, filters: filter }, query);
  const { rows, meta } = await connections.listConnections(ctx, caller.organizationId, filter, page);
  return { items: rows.map(calendarConnectionRecord), meta };
}

/**
 * Sets or clears the calendar bookings are written to, under the row lock (If-Match checked there). Only the bookings
 * that change from then on follow it: events already written stay where they are, and keep being updated there.
 */
export async function updateConnection(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch, changes }: { id: string; ifMatch?: IfMatch | undefined; changes: UpdateCalendarConnectionBody },
): Promise<Versioned<CalendarConnection>> {
  const id = recordId(rawId, connectionNotFound);
  const row = await ctx.prisma.$transaction(async (tx) => {
    const locked = await connections.lockConnection(tx, caller.organizationId, id);
    if (!locked) throw connectionNotFound();
    requireMatch(ifMatch, locked);
    if (changes.write_calendar_id === undefined) return connections.findConnection(tx, caller.organizationId, id);
    // An ICS feed is read only: there is no account to write to.
    if (locked.provider === 'ics' && changes.write_calendar_id !== null) {
      throw invalidInput('write_calendar_id', 'write_calendar_id is not available for ics connections (a feed is read only)');
    }
    return connections.setWriteCalendar(tx, id, changes.write_calendar_id);
  });
  if (!row) throw connectionNotFound();
  return { record: calendarConnectionRecord(row), version: row.version };
}

/**
 * Deletes the connection and records its removal, under the row lock: a sync finishing at the same time
 * either commits its busy update first (and a stale If-Match then fails) or finds the row gone and publishes
 * nothing. The removal event makes its busy windows stop blocking.
 */
export async function deleteConnection(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, connectionNotFound);
  await ctx.prisma.$transaction(async (tx) => {
    const locked = await connections.lockConnection(tx, caller.organizationId, id);
    if (!locked) throw connectionNotFound();
    requireMatch(ifMatch, locked);
    await connections.deleteConnection(tx, id);
    const data = { connection_id: id, schedule_id: locked.scheduleId };
    await recordEvent(tx, calendarConnectionRemovedEvent, data, eventContextOf(caller));
  });
  ctx.relay.wake();
  return { id, deleted: true };
}

/** Asks for a sync now (202): polling of a connection that needs re-authorization has stopped for good. */
export async function requestSync(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<CalendarConnection> {
  const connection = (await getConnection(ctx, caller, rawId)).record;
  if (connection.status === 'reauth_required') {
    throw new AppError('CONFLICT', 'The calendar connection needs re-authorization: connect the calendar again');
  }
  if (!(await connections.requestSync(ctx.prisma, caller.organizationId, connection.id))) throw connectionNotFound();
  ctx.wakeSync();
  return (await getConnection(ctx, caller, connection.id)).record;
}
