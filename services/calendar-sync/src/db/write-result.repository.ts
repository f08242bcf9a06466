import { calendarBookingEventChangedEvent, calendarConnectionStatusChangedEvent } from '@app/contracts';
import { previousAttributes, recordEvent, sqlOf } from '@app/service-kit';
import { bookingCalendarEventOf, shownStateChanged } from '../domain/calendar-write.js';
import { calendarConnectionRecord } from '../domain/calendar-connection.record.js';
import type { SealedTokens } from '../domain/connection-tokens.js';
import { decideAfterWrite, type WriteOutcome, type WriteRetryPolicy } from '../domain/write-decision.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { lockLeasedWrite, saveWriteDecision } from './calendar-write.repository.js';
import { storeRefreshedTokens, type ClaimedWrite } from './write-claim.repository.js';

export interface WriteResult {
  claim: ClaimedWrite;
  outcome: WriteOutcome;
  /** Tokens the attempt refreshed. */
  tokens: SealedTokens | undefined;
  now: Date;
  policy: WriteRetryPolicy;
}

/**
 * Records one attempt in one transaction: the connection first (refreshed tokens, a refused refresh token making it
 * `reauth_required` as a sync would), then the row, only while the attempt's lease holds, with
 * `calendar.booking_event.changed` when what the booking shows of it changed. False when the lease was lost.
 */
export async function finishWrite(prisma: PrismaClient, result: WriteResult): Promise<boolean> {
  const { claim, outcome } = result;
  return prisma.$transaction(async (tx) => {
    const db = sqlOf(tx);
    if (result.tokens) await storeRefreshedTokens(db, claim, result.tokens);
    if (outcome.kind === 'reauth') await requireReauthorization(tx, claim, outcome.message);
    const current = await lockLeasedWrite(db, claim);
    if (!current) return false;
    const changedMeanwhile = current.bookingVersion !== claim.bookingVersion;
    const decision = decideAfterWrite(outcome, { attempts: current.attempts, changedMeanwhile }, result.now, result.policy);
    const bump = shownStateChanged(current, decision);
    const saved = await saveWriteDecision(db, claim, decision, bump);
    if (bump) {
      await recordEvent(tx, calendarBookingEventChangedEvent, bookingCalendarEventOf(saved, claim.provider), {
        organizationId: claim.organizationId,
      });
    }
    return true;
  });
}

/** The refresh token was refused during a write: the connection stops, as after a sync that met it (status_changed). */
async function requireReauthorization(tx: Prisma.TransactionClient, claim: ClaimedWrite, message: string): Promise<void> {
  await sqlOf(tx).query(`SELECT 1 FROM calendar_connections WHERE id = $1::uuid FOR UPDATE`, [claim.connectionId]);
  const before = await tx.calendarConnection.findUnique({ where: { id: claim.connectionId } });
  if (!before || before.status === 'reauth_required') return;
  const updated = await tx.calendarConnection.update({
    where: { id: claim.connectionId },
    data: { status: 'reauth_required', lastError: message, nextSyncAt: null, retryNotBefore: null, updatedAt: new Date() },
  });
  const record = calendarConnectionRecord(updated);
  await recordEvent(
    tx,
    calendarConnectionStatusChangedEvent,
    {
      connection_id: claim.connectionId,
      schedule_id: claim.scheduleId,
      status: 'reauth_required',
      previous_status: before.status as 'active' | 'error',
      last_error: message,
      record,
      previous_attributes: previousAttributes(calendarConnectionRecord(before), record),
    },
    { organizationId: claim.organizationId },
  );
}
