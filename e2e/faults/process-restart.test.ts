import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { errorBodySchema } from '@app/contracts';
import { startE2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule } from '../support/organization.js';

describe('a service killed and restarted under load', () => {
  const stack = startedForTests(startE2eStack, { timeout: 120_000 });

  it('when the events service dies, then requests get 503 UPSTREAM_UNAVAILABLE quickly, and all works after its restart', async () => {
    const { key } = await organizationWithSchedule(stack);
    const statuses: number[] = [];
    let slowest = 0;
    let running = true;
    const client = async () => {
      while (running) {
        const started = Date.now();
        const response = await stack.call('GET', '/api/v1/event-types', { key });
        slowest = Math.max(slowest, Date.now() - started);
        statuses.push(response.status);
        if (response.status !== 200) expect(errorBodySchema.parse(response.body).code).toBe('UPSTREAM_UNAVAILABLE');
      }
    };
    const clients = Promise.all([client(), client(), client(), client()]);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const events = await stack.kill('events');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await stack.restart(events);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await clients;

    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.at(-1)).toBe(200);
    // Never a hang: a refused connection is answered at once, far below the proxy timeout.
    expect(slowest).toBeLessThan(10_000);
    const created = await stack.call('POST', '/api/v1/event-types', { key, body: { title: 'After restart', duration: 15 } });
    expect(created.status).toBe(201);
  });
});
