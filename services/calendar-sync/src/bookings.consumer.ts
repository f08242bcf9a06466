import { BOOKING_STATE_EVENTS, calendarBookingEventChangedEvent, NATS_TOPOLOGY, type BookingState } from '@app/contracts';
import {
  consumerTask,
  eventHandler,
  recordEvent,
  type BackgroundTask,
  type Bus,
  type ConsumerOptions,
  type Queryable,
  UNHURRIED_BATCH_GAP_MS,
} from '@app/service-kit';
import type pg from 'pg';
import type { z } from 'zod';
import {
  insertWrite,
  lockWrite,
  markPending,
  organizationsWritingBack,
  raiseBookingVersion,
  writingConnections,
  type WritingConnection,
} from './db/calendar-write.repository.js';
import { bookingCalendarEventOf, bookingWriteOf, planBookingChange, type BookingWrite } from './domain/calendar-write.js';

// The durable name and stream come from the topology, which the service's NATS user's rights are generated from.
const { bookings } = NATS_TOPOLOGY['calendar-sync'].consumes;

export interface BookingsConsumerDeps {
  bus: Bus;
  pool: pg.Pool;
  /** Wakes the writer loop: a row became due. */
  wakeWrites: () => void;
  retry?: ConsumerOptions['retry'];
}

/**
 * The bookings' states, for write-back: every booking event carries the whole state and version, so all of them apply
 * the same way. Each connection of the booking's schedule that writes back gets its calendar_writes row made or moved
 * to the newest state (older versions ignored), in the transaction that records the event in the kit's inbox (a
 * redelivery has no second effect); the writer worker then makes the provider match it. Organizations without a
 * writing connection cost one read per batch, and no inbox row.
 */
export function bookingsConsumer({ bus, pool, wakeWrites, retry }: BookingsConsumerDeps): BackgroundTask {
  return consumerTask(bus, {
    ...bookings,
    minBatchGapMs: UNHURRIED_BATCH_GAP_MS,
    ...(retry ? { retry } : {}),
    pool,
    organizationsConcerned: (organizationIds) => organizationsWritingBack(pool, organizationIds),
    handlers: BOOKING_STATE_EVENTS.map((contract) =>
      eventHandler<z.ZodType<BookingState>>(contract, async (event, tx) => {
        if (await applyBookingWrite(tx, bookingWriteOf(event.organization_id.toLowerCase(), event.data))) wakeWrites();
      }),
    ),
  });
}

/** The booking's newest state in each writing connection's row; true when some row became due. */
async function applyBookingWrite(tx: Queryable, write: BookingWrite): Promise<boolean> {
  let due = false;
  for (const connection of await writingConnections(tx, write.organizationId, write.scheduleId)) {
    due = (await applyToConnection(tx, connection, write)) || due;
  }
  return due;
}

async function applyToConnection(tx: Queryable, connection: WritingConnection, write: BookingWrite): Promise<boolean> {
  const existing = await lockWrite(tx, connection.id, write.bookingId);
  const plan = planBookingChange(existing, write);
  const publish = (row: Parameters<typeof bookingCalendarEventOf>[0]) =>
    recordEvent(tx, calendarBookingEventChangedEvent, bookingCalendarEventOf(row, connection.provider), {
      organizationId: write.organizationId,
    });
  switch (plan.kind) {
    case 'stale':
      return false;
    case 'version_only':
      if (existing) await raiseBookingVersion(tx, existing, write.bookingVersion);
      return false;
    case 'insert': {
      const inserted = await insertWrite(tx, connection, write, plan.due);
      // Another event of the booking made the row first (another replica): decide again against it.
      if (!inserted) return applyToConnection(tx, connection, write);
      if (plan.due) await publish(inserted);
      return plan.due;
    }
    case 'pending': {
      if (!existing) return false;
      const updated = await markPending(tx, existing, write, plan.publish);
      if (plan.publish) await publish(updated);
      return true;
    }
  }
}
