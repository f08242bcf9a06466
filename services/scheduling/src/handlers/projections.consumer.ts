import {
  BOOKING_EVENTS,
  BOOKINGS_STREAM,
  CALENDAR_STREAM,
  calendarBusyUpdatedEvent,
  calendarConnectionRemovedEvent,
  type BookingState,
} from '@app/contracts';
import type pg from 'pg';
import { consumerTask, type BackgroundTask, type Bus } from '@app/service-kit';
import type { z } from 'zod';
import { applyBookingState, applyBusySync, removeConnection } from '../db/projection.repository.js';

/** Every booking event carries the booking's whole state and version: all four apply the same way. */
export function bookingsProjection(bus: Bus, pool: pg.Pool): BackgroundTask {
  return consumerTask<z.ZodType<BookingState>>(bus, {
    durable: 'scheduling-bookings',
    stream: BOOKINGS_STREAM,
    events: [...BOOKING_EVENTS],
    pool,
    handle: (event, tx) => applyBookingState(tx, event.data),
  });
}

type CalendarEvent = z.output<typeof calendarBusyUpdatedEvent.data> | z.output<typeof calendarConnectionRemovedEvent.data>;

/** Busy windows of connected calendars: a sync replaces its range, a removal drops the connection's windows. */
export function calendarProjection(bus: Bus, pool: pg.Pool): BackgroundTask {
  return consumerTask<z.ZodType<CalendarEvent>>(bus, {
    durable: 'scheduling-calendar',
    stream: CALENDAR_STREAM,
    events: [calendarBusyUpdatedEvent, calendarConnectionRemovedEvent],
    pool,
    handle: async (event, tx) => {
      if ('range' in event.data) await applyBusySync(tx, event.data);
      else await removeConnection(tx, event.data);
    },
  });
}
