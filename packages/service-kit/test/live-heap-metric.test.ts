import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, type ServiceApp } from '../src/index.js';
import { silentLog } from './support/kit-env.js';

/** A full (mark-compact) collection now, without starting the test process with --expose-gc. */
function collectFully(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const liveBytes = (body: string) => Number(/^nodejs_heap_live_bytes\{[^}]*\} (\d+)/m.exec(body)?.[1] ?? Number.NaN);

describe('the live heap metric', () => {
  let app: ServiceApp;
  beforeAll(async () => {
    app = await buildService({ name: 'kit-live-heap', log: silentLog, readiness: [], verifyCallerAssertion: false });
  });
  afterAll(() => app.close());

  it('when a major collection has run, then /metrics gives the heap in use right after it, within the heap V8 holds', async () => {
    // Garbage first (built and dropped), then the collection that frees it.
    expect(Array.from({ length: 200_000 }, (_, n) => ({ n, text: `item ${n}` })).length).toBe(200_000);
    collectFully();
    // The observer is told of the collection asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const body = (await app.inject({ url: '/metrics' })).body;
    const live = liveBytes(body);
    expect(live).toBeGreaterThan(1_000_000);
    const total = Number(/^nodejs_heap_size_total_bytes\{[^}]*\} (\d+)/m.exec(body)?.[1]);
    expect(live).toBeLessThanOrEqual(total);
  });
});
