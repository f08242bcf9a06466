import { randomUUID } from 'node:crypto';
import {
  bookingCancelledEvent,
  bookingCreatedEvent,
  bookingRescheduledEvent,
  bookingStatusChangedEvent,
  type BookingRecord,
  type BookingState,
} from '@app/contracts';
import { publishDomainEvent } from '@app/service-testing';
import type { CalendarSyncService } from './harness.js';

/** A UTC instant `days` from today at `hour`:00. */
export const at = (days: number, hour: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};

/** A booking's state as the bookings service's events carry it (PENDING, version 1), with its record. */
export function bookingState(scheduleId: string, overrides: Partial<BookingRecord> = {}): BookingState {
  const id = randomUUID();
  const start = overrides.start_time ?? at(3, 10);
  const end = overrides.end_time ?? at(3, 11);
  const record: BookingRecord = {
    id,
    schedule_id: scheduleId,
    event_type_id: null,
    start_time: start,
    end_time: end,
    status: 'PENDING',
    title: 'Intro call',
    timezone: null,
    location: null,
    location_type: null,
    metadata: null,
    attendee: { name: 'Ada Lovelace', email: 'ada@example.com', phone: null, timezone: null, notes: null },
    attendee_name: 'Ada Lovelace',
    attendee_email: 'ada@example.com',
    cancelled: false,
    seats: 1,
    series_id: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  };
  return {
    booking_id: id,
    schedule_id: scheduleId,
    event_type_id: null,
    status: record.status,
    start_time: start,
    end_time: end,
    version: 1,
    seats: 1,
    record,
  };
}

/**
 * The booking's life as the bookings service publishes it (its outbox relay: envelope, msgID = event id), each step
 * one version newer than the last.
 */
export class PublishedBooking {
  constructor(
    private readonly running: CalendarSyncService,
    readonly organizationId: string,
    public state: BookingState,
  ) {}

  get id(): string {
    return this.state.booking_id;
  }

  created(): Promise<string> {
    return publishDomainEvent(this.running.neighbour, bookingCreatedEvent, this.state, { organizationId: this.organizationId });
  }

  confirmed(): Promise<string> {
    const previous = this.state.status;
    this.next({ status: 'CONFIRMED' });
    return publishDomainEvent(
      this.running.neighbour,
      bookingStatusChangedEvent,
      { ...this.state, previous_status: previous, previous_attributes: { status: previous } },
      { organizationId: this.organizationId },
    );
  }

  rescheduled(start: string, end: string): Promise<string> {
    const before = { start_time: this.state.start_time, end_time: this.state.end_time };
    this.next({ start_time: start, end_time: end });
    return publishDomainEvent(
      this.running.neighbour,
      bookingRescheduledEvent,
      { ...this.state, previous_start_time: before.start_time, previous_end_time: before.end_time, previous_attributes: before },
      { organizationId: this.organizationId },
    );
  }

  cancelled(): Promise<string> {
    const previous = this.state.status;
    this.next({ status: 'CANCELLED', cancelled: true });
    return publishDomainEvent(
      this.running.neighbour,
      bookingCancelledEvent,
      { ...this.state, previous_status: previous },
      { organizationId: this.organizationId },
    );
  }

  private next(changes: Partial<BookingRecord>): void {
    const record = { ...(this.state.record as BookingRecord), ...changes, updated_at: new Date().toISOString() };
    this.state = {
      ...this.state,
      status: record.status,
      start_time: record.start_time,
      end_time: record.end_time,
      version: this.state.version + 1,
      record,
    };
  }
}
