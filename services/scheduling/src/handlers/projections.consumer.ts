import {
  BOOKING_EVENTS,
  BOOKINGS_STREAM,
  CALENDAR_STREAM,
  calendarBusyUpdatedEvent,
  calendarConnectionRemovedEvent,
  type BookingState,
} from '@app/contracts';
import type pg from 'pg';
import { consumerTask, eventHandler, type BackgroundTask, type Bus } from '@app/service-kit';
import type { z } from 'zod';
import { applyBookingState, applyBusySync, removeConnection } from '../db/projection.repository.js';

/** Every booking event carries the booking's whole state and version: all of them apply the same way. */
export function bookingsProjection(bus: Bus, pool: pg.Pool): BackgroundTask {
  return consumerTask(bus, {
    durable: 'scheduling-bookings',
    stream: BOOKINGS_STREAM,
    handlers: BOOKING_EVENTS.map((contract) =>
      eventHandler<z.ZodType<BookingState>>(contract, (event, tx) => applyBookingState(tx, event.data)),
    ),
    pool,
  });
}

/** Busy windows of connected calendars: a sync replaces its range, a removal drops the connection's windows. */
export function calendarProjection(bus: Bus, pool: pg.Pool): BackgroundTask {
  return consumerTask(bus, {
    durable: 'scheduling-calendar',
    stream: CALENDAR_STREAM,
    handlers: [
      eventHandler(calendarBusyUpdatedEvent, async (event, tx) => {
        await applyBusySync(tx, event.data); // false when skipped as stale: acked all the same
      }),
      eventHandler(calendarConnectionRemovedEvent, (event, tx) => removeConnection(tx, event.data)),
    ],
    pool,
  });
}
