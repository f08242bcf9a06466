import { calendarBusyUpdatedEvent, calendarConnectionStatusChangedEvent, type ConnectionStatus } from '@app/contracts';
import { previousAttributes, recordEvent, sqlOf } from '@app/service-kit';
import { connectionWindows, fromIsoWindows, toIsoWindow, type Interval } from '../domain/busy-windows.js';
import { calendarConnectionRecord } from '../domain/calendar-connection.record.js';
import type { SyncDecision } from '../domain/sync-decision.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { CalendarRead } from '../clients/calendar-reader.js';
import type { ClaimedConnection, StoredCredentials } from './sync.repository.js';

export interface SyncResult {
  claim: ClaimedConnection;
  /** Per-calendar answers; empty when the sync failed as a whole. */
  reads: CalendarRead[];
  decision: SyncDecision;
  range: Interval;
  syncedAt: Date;
  /** Credentials to store: tokens refreshed during the sync or re-encrypted under the current key; a feed's validators. */
  tokens: StoredCredentials | undefined;
}

type Tx = Prisma.TransactionClient;

/**
 * Writes what one sync found, in one transaction and only while its lease holds (a sync that lost its
 * lease, or whose connection was deleted meanwhile, changes nothing): per-calendar windows, the
 * connection's status and schedule, and `calendar.busy.updated` with every calendar's windows in range.
 */
export async function finishSync(prisma: PrismaClient, result: SyncResult): Promise<boolean> {
  const { claim, decision } = result;
  return prisma.$transaction(async (tx) => {
    const { rows } = await sqlOf(tx).query<{ status: ConnectionStatus; requested_meanwhile: boolean }>(
      `SELECT status, COALESCE(sync_requested_at > claimed_at, false) AS requested_meanwhile FROM calendar_connections
        WHERE id = $1::uuid AND lease_token = $2::uuid FOR UPDATE`,
      [claim.id, claim.leaseToken],
    );
    const current = rows[0];
    if (!current) return false;
    // The record before a status change, for its event's previous_attributes (read under the row lock just taken).
    const before = current.status === decision.status ? null : await tx.calendarConnection.findUnique({ where: { id: claim.id } });
    await saveCalendarReads(tx, claim.id, result.reads, result.syncedAt);
    if (decision.publish) await publishWindows(tx, result);
    const now = new Date();
    // A manual sync requested while this one ran gets its own run (after any Retry-After).
    const nextSyncAt =
      current.requested_meanwhile && decision.nextSyncAt
        ? new Date(Math.max(now.getTime(), decision.retryNotBefore?.getTime() ?? 0))
        : decision.nextSyncAt;
    const updated = await tx.calendarConnection.update({
      where: { id: claim.id },
      data: {
        status: decision.status,
        lastError: decision.lastError,
        ...(decision.lastSyncedAt ? { lastSyncedAt: decision.lastSyncedAt } : {}),
        nextSyncAt,
        retryNotBefore: decision.retryNotBefore,
        consecutiveFailures: decision.consecutiveFailures,
        lastAttemptedAt: now,
        leaseToken: null,
        leaseExpiresAt: null,
        ...(result.tokens ?? {}),
        updatedAt: now,
      },
    });
    if (current.status !== decision.status) {
      const record = calendarConnectionRecord(updated);
      await recordEvent(
        tx,
        calendarConnectionStatusChangedEvent,
        {
          connection_id: claim.id,
          schedule_id: claim.scheduleId,
          status: decision.status,
          previous_status: current.status,
          last_error: decision.lastError,
          record,
          previous_attributes: before ? previousAttributes(calendarConnectionRecord(before), record) : { status: current.status },
        },
        { organizationId: claim.organizationId },
      );
    }
    return true;
  });
}

/** A calendar read replaces its windows; one that failed keeps its last known windows and records why. */
async function saveCalendarReads(tx: Tx, connectionId: string, reads: CalendarRead[], syncedAt: Date): Promise<void> {
  for (const read of reads) {
    const key = { connectionId_calendarId: { connectionId, calendarId: read.calendarId } };
    if (read.ok) {
      const windows = read.windows.map(toIsoWindow);
      await tx.calendarState.upsert({
        where: key,
        create: { connectionId, calendarId: read.calendarId, windows, readAt: syncedAt, lastError: null },
        update: { windows, readAt: syncedAt, lastError: null, updatedAt: new Date() },
      });
    } else {
      await tx.calendarState.upsert({
        where: key,
        create: { connectionId, calendarId: read.calendarId, windows: [], lastError: read.error },
        update: { lastError: read.error, updatedAt: new Date() },
      });
    }
  }
}

async function publishWindows(tx: Tx, result: SyncResult): Promise<void> {
  const { claim, range } = result;
  const states = await tx.calendarState.findMany({ where: { connectionId: claim.id, calendarId: { in: claim.calendarIds } } });
  const perCalendar = states.map((state) =>
    fromIsoWindows(Array.isArray(state.windows) ? (state.windows as { start?: string; end?: string }[]) : []),
  );
  const windows = connectionWindows(perCalendar, range).map(toIsoWindow);
  await recordEvent(
    tx,
    calendarBusyUpdatedEvent,
    {
      connection_id: claim.id,
      schedule_id: claim.scheduleId,
      range: toIsoWindow(range),
      windows,
      synced_at: result.syncedAt.toISOString(),
    },
    { organizationId: claim.organizationId },
  );
}
