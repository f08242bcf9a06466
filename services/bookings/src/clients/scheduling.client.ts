import type { z } from 'zod';
import { availabilityCheckRequest } from '@app/contracts';
import type { Bus } from '@app/service-kit';

/** The scheduling service's answer for an interval: bookable or why not, and the schedule's own zone. */
export type Availability = z.infer<typeof availabilityCheckRequest.reply>;

/** The scheduling service over NATS: an unknown, inactive or foreign schedule is its 404 SCHEDULE_NOT_FOUND. */
export class SchedulingClient {
  constructor(private readonly bus: Bus) {}

  /** `scheduling.availability.check`: is [startTime, endTime) bookable on the schedule? */
  checkAvailability(
    slot: { organizationId: string; scheduleId: string; startTime: Date; endTime: Date },
    requestId?: string,
  ): Promise<Availability> {
    return this.bus.request(
      availabilityCheckRequest,
      {
        organization_id: slot.organizationId,
        schedule_id: slot.scheduleId,
        start_time: slot.startTime.toISOString(),
        end_time: slot.endTime.toISOString(),
      },
      requestId,
    );
  }
}
