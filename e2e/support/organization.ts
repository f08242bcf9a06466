import { createdOrganizationSchema, dataEnvelope, scheduleRecordSchema } from '@app/contracts';
import { ADMIN_TOKEN, type E2eStack } from './e2e-stack.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A new organization through the admin API (in UTC unless `timezone` is given), with its first key. */
export async function createOrganization(stack: E2eStack, name = 'E2E', timezone?: string): Promise<{ key: string }> {
  const created = await stack.call('POST', '/admin/v1/organizations', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    body: timezone === undefined ? { name } : { name, timezone },
  });
  if (created.status !== 201) throw new Error(`organization not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { key: dataEnvelope(createdOrganizationSchema).parse(created.body).data.api_key };
}

/** A new organization with a schedule open around the clock in 15-minute slots: every future quarter hour is bookable. */
export async function organizationWithSchedule(stack: E2eStack): Promise<{ key: string; scheduleId: string }> {
  const { key } = await createOrganization(stack, 'Faults');
  const schedule = await stack.call('POST', '/api/v1/schedules', {
    key,
    body: {
      name: 'Always open',
      timezone: 'UTC',
      slot_duration: 15,
      availability: WEEK.map((day) => ({ day, start: '00:00', end: '24:00' })),
    },
  });
  return { key, scheduleId: dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id };
}

/** The n-th quarter hour starting tomorrow at 00:00 UTC, as a booking interval. */
export function quarterHour(n: number, daysAhead = 1): { start_time: string; end_time: string } {
  const start = new Date(
    Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + daysAhead) + n * 900_000,
  );
  return { start_time: start.toISOString(), end_time: new Date(start.getTime() + 900_000).toISOString() };
}
