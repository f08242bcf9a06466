import { calendarBookingEventChangedEvent, calendarConnectionRemovedEvent, NATS_TOPOLOGY } from '@app/contracts';
import type pg from 'pg';
import { consumerTask, eventHandler, type BackgroundTask, type Bus, type ConsumerOptions } from '@app/service-kit';
import { applyCalendarEvent, removeConnectionEvents } from '../db/calendar-event.repository.js';

// The durable name and stream come from the topology, which the service's NATS user's rights are generated from.
const { calendar } = NATS_TOPOLOGY.bookings.consumes;

/**
 * The state of each booking's provider event, as calendar-sync reports it (write-back), for the record's
 * `calendar_event`. Each report carries its version: an older one or a replay changes nothing (and the kit's inbox
 * drops a redelivery). A report naming a booking that is not its organization's is logged and acked. A removed
 * connection's states go with it; its reports were all published before its removal (one outbox, in order), so none
 * brings them back. The stream's other subjects (busy times, connection records) are acked untouched.
 */
export function calendarEventsProjection(bus: Bus, pool: pg.Pool, tuning: Pick<ConsumerOptions, 'retry'> = {}): BackgroundTask {
  return consumerTask(bus, {
    ...calendar,
    ...tuning,
    handlers: [
      eventHandler(calendarBookingEventChangedEvent, async (event, tx) => {
        if (!(await applyCalendarEvent(tx, event.organization_id, event.data)))
          bus.log.warn({ event_id: event.id, type: event.type }, "event refused: its booking is not its organization's");
      }),
      eventHandler(calendarConnectionRemovedEvent, (event, tx) =>
        removeConnectionEvents(tx, event.organization_id, event.data.connection_id),
      ),
    ],
    pool,
  });
}
