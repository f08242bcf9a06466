import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule } from '../support/organization.js';

// The gateway probes each replica's /readyz every 500 ms (its TUNING.upstreamProbeMs) and counts a probe slower than
// that as not ready: on a busy machine a 200 ms probe of the staying replica timed out too, leaving no replica ready,
// so requests went to the leaving one as it closed (run 3 of 10, five 503s). The gateway's 500 ms, and a drain of
// several probes, keep the test about the drain rather than about the machine's load.
const DRAIN_MS = 3000;

describe('a replica stopped with SIGTERM under load', () => {
  const stack = startedForTests(() => startE2eStack({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS) }, { events: 2 }), { timeout: 120_000 });

  it('when one events replica is told to stop, then it reports not-ready first, drains, and no request is dropped', async () => {
    const { key } = await organizationWithSchedule(stack);
    const replicas = stack.children.filter((child) => child.name === 'events');
    expect(replicas).toHaveLength(2);
    const [leaving] = replicas;
    if (!leaving) throw new Error('no events replica');

    const statuses: number[] = [];
    let running = true;
    const client = async (n: number) => {
      for (let i = 0; running; i += 1) {
        const response =
          i % 2 === 0
            ? await stack.call('GET', '/api/v1/event-types', { key })
            : await stack.call('POST', '/api/v1/event-types', { key, body: { title: `Drain ${n}-${i}`, duration: 30 } });
        statuses.push(response.status);
      }
    };
    const clients = Promise.all([0, 1, 2, 3].map(client));
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const readiness: number[] = [];
    const exited = new Promise<number | null>((resolve) => leaving.child.once('exit', (code) => resolve(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    const watchReadiness = (async () => {
      while (!gone) {
        const status = await fetch(`http://127.0.0.1:${leaving.port}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
        if (!gone) readiness.push(status);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const sentAt = Date.now();
    leaving.child.kill('SIGTERM');
    const exitCode = await exited;
    const stoppedAfter = Date.now() - sentAt;
    await watchReadiness;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await clients;

    expect(exitCode).toBe(0);
    expect(stoppedAfter).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(readiness).toContain(503);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);
  });
});
