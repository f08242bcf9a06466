import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBetween, sampleLoad } from '../../bench/lib/load-sampler.mjs';
import { steadyLoad } from '../../bench/lib/steady-load.mjs';

/**
 * `npm run bench`'s steady mode reports the p99 a client sees at a fixed rate. What it must get right: requests go at
 * the rate, evenly spaced; the warm-up second is sent but not counted; a stall of the service shows in the latencies
 * of every request due during it (measured from when each was due, not from when it could go); and scenarios that read
 * answers (`onResponse`) get every one.
 */
describe('the bench’s steady load', () => {
  let server: Server;
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  /** A server answering 200 to everything, after `delayOf(n)` ms for its n-th request; resolves to its URL. */
  async function serve(delayOf: (n: number) => number, arrivals: number[]): Promise<string> {
    server = createServer((request, response) => {
      const n = arrivals.push(performance.now()) - 1;
      setTimeout(() => response.end(JSON.stringify({ n, path: request.url })), delayOf(n));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return `http://127.0.0.1:${port}`;
  }

  it('when run at 200/s for 1 s, then it sends the warm-up second and the measured one evenly, and counts only the second', async () => {
    const arrivals: number[] = [];
    const url = await serve(() => 0, arrivals);
    const result = await steadyLoad({ url, requests: [{ method: 'GET', path: '/x' }], rate: 200, duration: 1, connections: 10 });
    expect(arrivals).toHaveLength(400);
    expect(result).toMatchObject({ requests: 200, warmup_requests: 200, non2xx: 0, errors: 0, status_codes: { 200: 200 } });
    // Spread over the two seconds, not sent as fast as the service answers (a slow machine only spreads them more).
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(1500);
    expect(result.rps).toBeLessThanOrEqual(201);
  });

  it('when the service stalls during the measured second, then the requests due meanwhile carry the stall in their latency', async () => {
    const arrivals: number[] = [];
    // At 100/s with 1 connection, the 150th request (half-way through the measured second) is held for 300 ms: the
    // requests due behind it cannot even be sent, yet each latency counts from its due time.
    const url = await serve((n) => (n === 150 ? 300 : 0), arrivals);
    const result = await steadyLoad({ url, requests: [{ method: 'GET', path: '/x' }], rate: 100, duration: 1, connections: 1 });
    expect(result.requests).toBe(100);
    expect(result.p50_ms).toBeLessThan(150);
    expect(result.p99_ms).toBeGreaterThanOrEqual(250);
  });

  it('when a trace file is given, then it gets each counted request’s due time and latency, and the stall shows where it was', async () => {
    const arrivals: number[] = [];
    const url = await serve((n) => (n === 150 ? 300 : 0), arrivals);
    const dir = mkdtempSync(join(tmpdir(), 'steady-trace-'));
    try {
      const tracePath = join(dir, 'trace.txt');
      const startedAt = Date.now();
      await steadyLoad({
        url,
        requests: [{ method: 'GET', path: '/x' }],
        rate: 100,
        duration: 1,
        connections: 1,
        label: 'stall',
        tracePath,
      });
      const [header, ...lines] = readFileSync(tracePath, 'utf8').trim().split('\n');
      expect(header).toMatch(/^# stall: 100\/s from \d{4}-\d\d-\d\dT/);
      const rows = lines.map((line) => line.split(' ').map(Number) as [number, number, number]);
      expect(rows).toHaveLength(100);
      expect(rows.every(([dueAt]) => dueAt >= startedAt && dueAt <= Date.now())).toBe(true);
      // The slowest request is the held one, due half-way through the measured second.
      const [, latency, inRun] = rows.reduce((slowest, row) => (row[1] > slowest[1] ? row : slowest));
      expect(latency).toBeGreaterThanOrEqual(250);
      expect(inRun).toBeGreaterThan(0.4);
      expect(inRun).toBeLessThan(0.6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a goal is given and the service stalls once, then the requests over it are counted and the second that held them is named', async () => {
    const arrivals: number[] = [];
    const url = await serve((n) => (n === 150 ? 300 : 0), arrivals);
    const startedAt = Date.now();
    const result = await steadyLoad({
      url,
      requests: [{ method: 'GET', path: '/x' }],
      rate: 100,
      duration: 1,
      connections: 1,
      goalMs: 100,
    });
    // The held request and those due behind it during the next 200 ms or so: all in one second (a stall, not a spread).
    expect(result.over_goal.count).toBeGreaterThanOrEqual(10);
    expect(result.over_goal.densest_second.count).toBe(result.over_goal.count);
    expect(result.over_goal.densest_second.at_s).toBeGreaterThan(0.4);
    expect(result.over_goal.densest_second.at_s).toBeLessThan(0.6);
    expect(result.over_goal.densest_second.from_epoch_ms).toBeGreaterThanOrEqual(startedAt);
  });

  it('when nothing is slower than the goal, then none is counted and no second is named', async () => {
    const arrivals: number[] = [];
    const url = await serve(() => 0, arrivals);
    const result = await steadyLoad({
      url,
      requests: [{ method: 'GET', path: '/x' }],
      rate: 50,
      duration: 1,
      connections: 2,
      goalMs: 1000,
    });
    expect(result.over_goal).toEqual({ count: 0 });
  });

  it('when this process keeps a core busy, then the load samples show it as the client’s, within what the machine used', async () => {
    const sampler = sampleLoad({ database: 'none' });
    const from = Date.now();
    // Busy in slices, so that the sampler's timer runs in between.
    while (Date.now() - from < 1600) {
      const slice = Date.now();
      while (Date.now() - slice < 40);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const samples = sampler.stop();
    expect(samples.length).toBeGreaterThanOrEqual(2);
    const load = loadBetween(samples, from, Date.now())!;
    expect(load.client_cores).toBeGreaterThan(0.5);
    expect(load.machine_cores).toBeGreaterThanOrEqual(load.client_cores - 0.1);
    expect(load.other_cores).toBeGreaterThanOrEqual(0);
  });

  it('when a request has onResponse, then it gets every answer, the warm-up’s included, and setupRequest shapes each request', async () => {
    const arrivals: number[] = [];
    const url = await serve(() => 0, arrivals);
    const answers: unknown[] = [];
    let made = 0;
    const template = {
      method: 'GET',
      path: '/',
      setupRequest: (request: object) => ({ ...request, path: `/r${made++}` }),
      onResponse: (status: number, body: string) => answers.push({ status, ...(JSON.parse(body) as object) }),
    };
    await steadyLoad({ url, requests: [template], rate: 50, duration: 1, connections: 5 });
    expect(answers).toHaveLength(100);
    const paths = answers.map((answer) => (answer as { path: string }).path).sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
    expect(paths).toEqual(Array.from({ length: 100 }, (_, i) => `/r${i}`));
    expect(answers.every((answer) => (answer as { status: number }).status === 200)).toBe(true);
  });
});
