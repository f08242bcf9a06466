import { isUuid, scheduleGetRequest } from '@app/contracts';
import { AppError, type Bus } from '@app/service-kit';

/** A schedule id the fake scheduling service does not know. */
export const UNKNOWN_SCHEDULE_ID = '00000000-0000-4000-8000-000000000000';
export const FAKE_SCHEDULE_ZONE = 'America/New_York';

/**
 * Answers `scheduling.schedule.get` for the API and provider tests (the end-to-end test runs the real
 * scheduling service on a NATS prefix of its own). Stateless, so instances in parallel test files agree:
 * every UUID except UNKNOWN_SCHEDULE_ID is an active schedule in America/New_York.
 */
export async function serveFakeSchedules(bus: Bus): Promise<void> {
  await bus.serve(scheduleGetRequest, async (request) => {
    if (!isUuid(request.schedule_id) || request.schedule_id === UNKNOWN_SCHEDULE_ID) {
      throw new AppError('SCHEDULE_NOT_FOUND', 'Schedule not found or inactive');
    }
    return {
      id: request.schedule_id.toLowerCase(),
      name: 'Fake schedule',
      timezone: FAKE_SCHEDULE_ZONE,
      slot_duration: 30,
      buffer_before: 0,
      buffer_after: 0,
      is_active: true,
    };
  });
}
