import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSystem, type StartedSystem } from '@scheduling-shop/testkit';

let system: StartedSystem;
beforeAll(async () => {
  system = await startSystem({ replicas: { bookings: 2 } });
}, 300_000);
afterAll(() => system?.stop());

it('books a slot through the gateway', async () => {
  const { apiKey } = await system.createOrganization('Acme');
  const api = (path: string, body?: object) =>
    fetch(`${system.gatewayUrl}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
  // Open every day: the default hours (Mon–Fri) would leave no slot tomorrow on a Friday or Saturday.
  const availability = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
    day,
    start: '09:00',
    end: '17:00',
  }));
  const created = await api('/api/v1/schedules', { name: 'Desk', timezone: 'UTC', availability });
  const schedule = (await created.json()) as { data: { id: string } };
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const booking = await api('/api/v1/bookings', {
    schedule_id: schedule.data.id,
    start_time: `${tomorrow}T10:00:00Z`,
    end_time: `${tomorrow}T10:30:00Z`,
    attendee: { name: 'Ada', email: 'ada@example.com' },
  });
  expect(booking.status).toBe(201);
});
