import { isUuid, scheduleGetRequest } from '@app/contracts';
import { scheduleNotFound } from '@app/service-kit';
import { fakeResponder, type FakeResponder } from '@app/service-testing';
import { afterAll } from 'vitest';

/** A schedule id the fake scheduling service does not know. */
export const UNKNOWN_SCHEDULE_ID = '00000000-0000-4000-8000-000000000000';
export const FAKE_SCHEDULE_ZONE = 'America/New_York';

let scheduling: Promise<FakeResponder> | undefined;
// One fake per test file (each file runs in a worker of its own), stopped after the file's own hooks.
afterAll(async () => {
  await (await scheduling)?.stop();
});

/**
 * Scheduling faked at its NATS boundary on the test file's prefix, answering `scheduling.schedule.get` statelessly:
 * every UUID except UNKNOWN_SCHEDULE_ID is an active schedule in America/New_York.
 * What scheduling itself answers across the real processes is e2e's (booking-checks.test.ts).
 */
export function fakeScheduling(natsPrefix: string): Promise<FakeResponder> {
  scheduling ??= (async () => {
    const neighbours = await fakeResponder(natsPrefix);
    await neighbours.answer(scheduleGetRequest, (request) => {
      if (!isUuid(request.schedule_id) || request.schedule_id === UNKNOWN_SCHEDULE_ID) {
        throw scheduleNotFound();
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
    return neighbours;
  })();
  return scheduling;
}
