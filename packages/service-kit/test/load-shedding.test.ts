import { afterEach, describe, expect, it } from 'vitest';
import { buildService, useLoadShedding, type ServiceApp } from '../src/index.js';
import { eventually, silentLog } from './support/kit-env.js';

/** A service whose `/slow` answers only when the test lets it, so requests stay in flight as long as it likes. */
async function serviceWithSlowRoute(): Promise<{ app: ServiceApp; release: (count: number) => Promise<void> }> {
  const app = await buildService({ name: 'shedding-test', log: silentLog, verifyCallerAssertion: false });
  let waiting: (() => void)[] = [];
  app.get('/slow', { schema: { hide: true } }, async () => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    return { ok: true };
  });
  app.get('/fast', { schema: { hide: true } }, async () => ({ ok: true }));
  await app.ready();
  // Once `count` requests have reached the route (inject runs them asynchronously), they all answer.
  const release = async (count: number) => {
    await eventually(async () => (waiting.length >= count ? true : undefined));
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  return { app, release };
}

function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs, as under a CPU-bound flood
  }
}

describe('load shedding', () => {
  const apps: ServiceApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('when MAX_IN_FLIGHT requests are in flight, then the next is a 503 with Retry-After at once, probes still answer, and the place is back once one ends', async () => {
    const { app, release } = await serviceWithSlowRoute();
    apps.push(app);
    useLoadShedding(app, { maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const held = [app.inject({ url: '/slow' }), app.inject({ url: '/slow' })];
    await eventually(async () => {
      const refused = await app.inject({ url: '/fast' });
      return refused.statusCode === 503 ? refused : undefined;
    }).then((refused) => {
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({ error: 'The service is overloaded; retry after a second', code: 'UPSTREAM_UNAVAILABLE' });
    });
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    await release(2);
    expect((await Promise.all(held)).map((response) => response.statusCode)).toEqual([200, 200]);
    // Served one after another, requests never pile up: a count that drifted would refuse them by now.
    for (let n = 0; n < 20; n += 1) expect((await app.inject({ url: '/fast' })).statusCode).toBe(200);
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/http_requests_shed_total\{reason="in_flight",service="shedding-test"\} 1\b/);
  });

  it('when the event loop runs late past the limit, then new requests are 503 until it catches up', async () => {
    const { app } = await serviceWithSlowRoute();
    apps.push(app);
    useLoadShedding(app, { maxInFlight: 0, maxEventLoopDelayMs: 20 });
    expect((await app.inject({ url: '/fast' })).statusCode).toBe(200);
    blockEventLoop(1_200);
    await eventually(async () => ((await app.inject({ url: '/fast' })).statusCode === 503 ? true : undefined), 2_000);
    await eventually(async () => ((await app.inject({ url: '/fast' })).statusCode === 200 ? true : undefined), 3_000);
  });

  it('when no limits were set (an app outside startService), then nothing is shed', async () => {
    const { app, release } = await serviceWithSlowRoute();
    apps.push(app);
    const held = Array.from({ length: 50 }, () => app.inject({ url: '/slow' }));
    expect((await app.inject({ url: '/fast' })).statusCode).toBe(200);
    await release(50);
    expect((await Promise.all(held)).every((response) => response.statusCode === 200)).toBe(true);
  });
});
