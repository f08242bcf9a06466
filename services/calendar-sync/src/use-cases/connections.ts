import { randomUUID } from 'node:crypto';
import type { CalendarConnection, CalendarProvider, ListMeta } from '@app/contracts';
import { listMeta } from '@app/contracts';
import { AppError, notFound } from '@app/service-kit';
import type { ConnectionFilter } from '../db/connection.repository.js';
import { sealTokens, type CalendarTokens } from '../domain/connection-tokens.js';
import type { Caller, UseCaseContext } from './context.js';

export interface NewConnectionInput {
  provider: CalendarProvider;
  scheduleId: string;
  calendarIds: string[];
  tokens: CalendarTokens;
}

/** Creates a connection for an active schedule of the caller's organization; its first sync starts at once. */
export async function createConnection(input: NewConnectionInput, caller: Caller, ctx: UseCaseContext): Promise<CalendarConnection> {
  const schedule = await ctx.scheduling.requireSchedule(caller.organizationId, input.scheduleId, caller.requestId);
  const id = randomUUID();
  const connection = await ctx.connections.insert({
    id,
    organizationId: caller.organizationId,
    provider: input.provider,
    scheduleId: schedule.id,
    calendarIds: input.calendarIds,
    timeZone: schedule.timezone,
    tokens: sealTokens(ctx.ring, id, input.tokens),
  });
  ctx.wakeRelay();
  ctx.wakeSync();
  return connection;
}

export async function getConnection(id: string, caller: Caller, ctx: UseCaseContext): Promise<CalendarConnection> {
  const connection = await ctx.connections.find(caller.organizationId, id);
  if (!connection) throw notFound('Calendar connection');
  return connection;
}

export async function listConnections(
  filter: ConnectionFilter,
  page: { limit: number; offset: number },
  caller: Caller,
  ctx: UseCaseContext,
): Promise<{ data: CalendarConnection[]; meta: ListMeta }> {
  const { rows, total } = await ctx.connections.list(caller.organizationId, filter, page);
  return { data: rows, meta: listMeta(total, page.limit, page.offset) };
}

/** Deletes the connection; `calendar.connection.removed` makes its busy windows stop blocking. */
export async function deleteConnection(id: string, caller: Caller, ctx: UseCaseContext): Promise<{ id: string; deleted: true }> {
  if (!(await ctx.connections.remove(caller.organizationId, id))) throw notFound('Calendar connection');
  ctx.wakeRelay();
  return { id: id.toLowerCase(), deleted: true };
}

/** Asks for a sync now (202): polling of a connection that needs re-authorization has stopped for good. */
export async function requestSync(id: string, caller: Caller, ctx: UseCaseContext): Promise<CalendarConnection> {
  const connection = await getConnection(id, caller, ctx);
  if (connection.status === 'reauth_required') {
    throw new AppError('CONFLICT', 'The calendar connection needs re-authorization: connect the calendar again');
  }
  const requested = await ctx.connections.requestSync(caller.organizationId, id);
  if (!requested) throw notFound('Calendar connection');
  ctx.wakeSync();
  return requested;
}
