import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdOrganizationSchema, dataEnvelope, scheduleRecordSchema } from '@app/contracts';
import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '../support/e2e-stack.js';

/** A service's own port, as something inside the network that is not the gateway would reach it. */
function serviceUrl(stack: E2eStack, name: string): string {
  const child = stack.children.find((entry) => entry.name === name);
  if (!child) throw new Error(`no ${name} process in the stack`);
  return `http://127.0.0.1:${child.port}`;
}

describe('a service reached on its own port, past the gateway', () => {
  let stack: E2eStack;
  let organization: { id: string; key: string };
  let scheduleId: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    const created = await stack.call('POST', '/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: 'Direct Org' },
    });
    const { data } = dataEnvelope(createdOrganizationSchema).parse(created.body);
    organization = { id: data.id, key: data.api_key };
    const schedule = await stack.call('POST', '/api/v1/schedules', {
      key: organization.key,
      body: { name: 'Direct', timezone: 'UTC', slot_duration: 30 },
    });
    scheduleId = dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id;
  }, 120_000);
  afterAll(() => stack?.stop());

  it('when a booking is posted with only x-organization-id, then 401 and nothing is created in that organization', async () => {
    const response = await fetch(`${serviceUrl(stack, 'bookings')}/api/v1/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-organization-id': organization.id, 'x-organization-timezone': 'UTC' },
      body: JSON.stringify({
        schedule_id: scheduleId,
        start_time: '2030-01-07T09:00:00Z',
        end_time: '2030-01-07T09:30:00Z',
        attendee: { name: 'Mallory', email: 'mallory@example.com' },
      }),
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Missing or invalid API key', code: 'UNAUTHORIZED' });
    const listed = await stack.call('GET', `/api/v1/bookings?schedule_id=${scheduleId}`, { key: organization.key });
    expect(listed.status).toBe(200);
    expect((listed.body as { data: unknown[] }).data).toEqual([]);
  });

  it('when probes and scrapers call a service without an assertion, then /healthz, /readyz and /metrics answer', async () => {
    for (const name of ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync']) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        expect((await fetch(`${serviceUrl(stack, name)}${path}`)).status, `${name}${path}`).toBe(200);
      }
    }
  });

  it('when the same booking goes through the gateway with the key, then it is created', async () => {
    const response = await stack.call('POST', '/api/v1/bookings', {
      key: organization.key,
      body: {
        schedule_id: scheduleId,
        start_time: '2030-01-07T09:00:00Z',
        end_time: '2030-01-07T09:30:00Z',
        attendee: { name: 'Ada', email: 'ada@example.com' },
      },
    });
    expect(response.status).toBe(201);
  });
});
