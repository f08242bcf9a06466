import {
  BOOKING_STATE_EVENTS,
  calendarBusyUpdatedEvent,
  calendarConnectionRemovedEvent,
  eventTypeCreatedEvent,
  eventTypeDeletedEvent,
  eventTypeUpdatedEvent,
  HOLD_EVENTS,
  NATS_TOPOLOGY,
  type BookingState,
  type EventTypeRecord,
  type HoldState,
} from '@app/contracts';
import type pg from 'pg';
import {
  consumerTask,
  eventHandler,
  UNHURRIED_BATCH_GAP_MS,
  type BackgroundTask,
  type Bus,
  type ConsumerOptions,
  type Queryable,
} from '@app/service-kit';
import type { z } from 'zod';
import {
  applyBookingState,
  applyBusySync,
  applyEventType,
  applyHoldState,
  ownsSchedule,
  removeConnection,
  removeEventType,
} from '../db/projection.repository.js';

// Durable names and streams come from the topology, which the service's NATS user's rights are generated from.
const { bookings, calendar, eventTypes } = NATS_TOPOLOGY.scheduling.consumes;

type ProjectedEvent<Data> = { id: string; type: string; organization_id: string; data: Data };

function logRefusal(bus: Bus, event: ProjectedEvent<unknown>): void {
  bus.log.warn({ event_id: event.id, type: event.type }, "event refused: its schedule is not its organization's");
}

/** An event's effect, applied only when its schedule belongs to the event's organization (else logged and acked). */
function forOwnSchedule<Data extends { schedule_id: string }>(
  bus: Bus,
  apply: (tx: Queryable, data: Data) => Promise<unknown>,
): (event: ProjectedEvent<Data>, tx: Queryable) => Promise<void> {
  return async (event, tx) => {
    if (await ownsSchedule(tx, event.organization_id, event.data.schedule_id)) await apply(tx, event.data);
    else logRefusal(bus, event);
  };
}

/** How both consumers retry transient failures (the kit's schedule, or a test's). */
type ConsumerTuning = Pick<ConsumerOptions, 'retry' | 'minBatchGapMs'>;

/**
 * Every booking event carries the booking's whole state and version: all of them apply the same way. Holds come on
 * the same stream, in the same order as the bookings that use them, and take seats the same way until they expire.
 */
export function bookingsProjection(bus: Bus, pool: pg.Pool, tuning: ConsumerTuning = {}): BackgroundTask {
  return consumerTask(bus, {
    ...bookings,
    minBatchGapMs: UNHURRIED_BATCH_GAP_MS,
    ...tuning,
    // The ownership check is inside the upsert's statement: one round trip per booking or hold event.
    handlers: [
      ...BOOKING_STATE_EVENTS.map((contract) =>
        eventHandler<z.ZodType<BookingState>>(contract, async (event, tx) => {
          if (!(await applyBookingState(tx, event.organization_id, event.data))) logRefusal(bus, event);
        }),
      ),
      ...HOLD_EVENTS.map((contract) =>
        eventHandler<z.ZodType<HoldState>>(contract, async (event, tx) => {
          if (!(await applyHoldState(tx, event.organization_id, event.data))) logRefusal(bus, event);
        }),
      ),
    ],
    pool,
  });
}

/**
 * Event types' durations and activity (the events service's), so slots by event type need no request. An event
 * written before events carried the record says nothing of the duration: acked with no effect.
 */
export function eventTypesProjection(bus: Bus, pool: pg.Pool, tuning: ConsumerTuning = {}): BackgroundTask {
  const apply = async (event: { organization_id: string; data: { record?: EventTypeRecord | undefined } }, tx: Queryable) => {
    if (event.data.record) await applyEventType(tx, event.organization_id, event.data.record);
  };
  return consumerTask(bus, {
    ...eventTypes,
    ...tuning,
    handlers: [
      eventHandler(eventTypeCreatedEvent, apply),
      eventHandler(eventTypeUpdatedEvent, apply),
      eventHandler(eventTypeDeletedEvent, (event, tx) => removeEventType(tx, event.organization_id, event.data.id)),
    ],
    pool,
  });
}

/** Busy windows of connected calendars: a sync replaces its range, a removal drops the connection's windows. */
export function calendarProjection(bus: Bus, pool: pg.Pool, tuning: ConsumerTuning = {}): BackgroundTask {
  return consumerTask(bus, {
    ...calendar,
    ...tuning,
    handlers: [
      // A sync skipped as stale (applyBusySync → false) is acked all the same.
      eventHandler(calendarBusyUpdatedEvent, forOwnSchedule(bus, applyBusySync)),
      eventHandler(calendarConnectionRemovedEvent, forOwnSchedule(bus, removeConnection)),
    ],
    pool,
  });
}
