import { scheduleGetRequest } from '@app/contracts';
import type { Bus } from '@app/service-kit';

export interface ScheduleSummary {
  id: string;
  timezone: string;
}

/** The scheduling service over NATS: an unknown, inactive or foreign schedule is its 404 SCHEDULE_NOT_FOUND. */
export class SchedulingClient {
  constructor(private readonly bus: Bus) {}

  async requireSchedule(organizationId: string, scheduleId: string, requestId?: string): Promise<ScheduleSummary> {
    const schedule = await this.bus.request(scheduleGetRequest, { organization_id: organizationId, schedule_id: scheduleId }, requestId);
    return { id: schedule.id, timezone: schedule.timezone };
  }
}
