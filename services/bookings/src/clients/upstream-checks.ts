import { availabilityCheckRequest, eventTypeGetRequest, isUuid, scheduleGetRequest } from '@app/contracts';
import { AppError, type Bus } from '@app/service-kit';

const UNAVAILABLE_MESSAGES = {
  outside_availability: "The requested time is outside the schedule's availability",
  minimum_notice: "The requested time is within the schedule's minimum notice",
  calendar_busy: 'The requested time overlaps a busy time of a connected calendar',
} as const;

export interface BookableSlot {
  organizationId: string;
  scheduleId: string;
  eventTypeId?: string | null;
  startTime: Date;
  endTime: Date;
}

export interface BookableSchedule {
  id: string;
  timezone: string;
}

function scheduleNotFound(): AppError {
  return new AppError('SCHEDULE_NOT_FOUND', 'Schedule not found or inactive');
}

/** What the bookings service asks the scheduling and events services before it writes a booking. */
export class UpstreamChecks {
  constructor(private readonly bus: Bus) {}

  /**
   * API.md's checks, in its order: the schedule (exists, active, the caller's) → the event type, if
   * given → the interval inside availability and clear of calendar busy time. The three requests go
   * out together (the answers are read-only lookups) and are judged in that order, so the first
   * failing check is the one reported while the latency is one round trip, not three.
   */
  async verifyBookable(slot: BookableSlot, requestId?: string): Promise<BookableSchedule> {
    if (!isUuid(slot.scheduleId)) throw scheduleNotFound();
    const organization_id = slot.organizationId;
    const schedule = this.bus.request(scheduleGetRequest, { organization_id, schedule_id: slot.scheduleId }, requestId);
    const eventType = slot.eventTypeId
      ? this.bus.request(eventTypeGetRequest, { organization_id, event_type_id: slot.eventTypeId }, requestId)
      : Promise.resolve(null);
    const availability = this.bus.request(
      availabilityCheckRequest,
      {
        organization_id,
        schedule_id: slot.scheduleId,
        start_time: slot.startTime.toISOString(),
        end_time: slot.endTime.toISOString(),
      },
      requestId,
    );
    // An earlier failure is reported; the later answers must not become unhandled rejections.
    for (const pending of [schedule, eventType, availability]) pending.catch(() => undefined);

    const found = await schedule;
    if (!found.is_active) throw scheduleNotFound();
    await eventType;
    const answer = await availability;
    if (!answer.available) {
      const message = answer.reason ? UNAVAILABLE_MESSAGES[answer.reason] : 'The requested time is not available';
      throw new AppError('SLOT_UNAVAILABLE', message);
    }
    return { id: found.id, timezone: found.timezone };
  }
}
