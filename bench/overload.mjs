// `npm run bench:overload`: the overload curve. On a fresh stack (every process with MAX_IN_FLIGHT =
// OVERLOAD_MAX_IN_FLIGHT), finds the most the machine serves of one read (an events list through the gateway, 50
// connections, closed loop), then its steady p99 at half that rate (open loop, evenly spaced, latency counted from
// when each request was due), then offers 0.5× … 3× that rate with OVERLOAD_CONNECTIONS connections and prints, per
// step, the rate offered, served (2xx) and shed (503 with Retry-After), the served p99 and how fast the shed were
// told. Overload is shed, not queued, when at 2× the served p99 stays within 3× the steady p99, every excess request
// is answered (no timeouts), and every process is alive at the end. Numbers only: it never fails on timing.
// Writes bench/results/overload.json.
import { ensureModernNode } from '../scripts/ensure-node.mjs';
ensureModernNode();

const { mkdirSync, writeFileSync } = await import('node:fs');
const { cpus } = await import('node:os');
const { join } = await import('node:path');
const { default: autocannon } = await import('autocannon');
const { ADMIN_TOKEN, ownStack } = await import('./lib/target.mjs');
const { steadyLoad } = await import('./lib/steady-load.mjs');

const DATABASE_URL = process.env.OVERLOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop_bench_overload';
const PORT = Number(process.env.OVERLOAD_PORT ?? 3700);
const DURATION = Number(process.env.OVERLOAD_DURATION ?? 10);
const CONNECTIONS = Number(process.env.OVERLOAD_CONNECTIONS ?? 1024);
// Sized as the kit's MAX_IN_FLIGHT says: about 3 × throughput × usual latency (here ~1,400/s × ~8 ms ≈ 34). Measured
// 2026-12-03: at 64 the served p99 at 2× was 5.5× the steady one (requests queued behind 64 in flight), at 32 1.75×.
const MAX_IN_FLIGHT = process.env.OVERLOAD_MAX_IN_FLIGHT ?? '32';
const STEPS = [0.5, 1, 1.5, 2, 2.5, 3];

async function main() {
  process.env.MAX_IN_FLIGHT = MAX_IN_FLIGHT;
  const target = await ownStack({ databaseUrl: DATABASE_URL, port: PORT, portVariable: 'OVERLOAD_PORT' });
  try {
    const headers = await seed(target.url);
    const request = { method: 'GET', path: '/api/v1/events?limit=20&include_counts=true', headers };
    const max = await autocannon({ url: target.url, requests: [request], connections: 50, duration: DURATION });
    // Served means 2xx: with fewer in-flight places than connections some of them are shed, and do not count.
    const maxRate = Math.round((max.requests.total - max.non2xx) / DURATION);
    console.log(`most served: ${maxRate} req/s (50 connections, closed loop, p99 ${max.latency.p99} ms)`);
    const load = (rate) => steadyLoad({ url: target.url, requests: [request], rate, duration: DURATION, connections: CONNECTIONS });
    const steady = await load(Math.round(maxRate / 2));
    console.log(`steady at half: p99 ${steady.served_p99_ms} ms`);
    const steps = [];
    for (const multiple of STEPS) {
      const offered = Math.round(maxRate * multiple);
      const result = await load(offered);
      const step = {
        multiple,
        offered_rps: offered,
        served_rps: result.served_rps,
        shed_rps: Math.round(((result.status_codes[503] ?? 0) / result.requests) * offered),
        served_p99_ms: result.served_p99_ms,
        served_p99_vs_steady: +(result.served_p99_ms / steady.served_p99_ms).toFixed(2),
        shed_p99_ms: result.shed_p99_ms,
        errors: result.errors,
        status_codes: result.status_codes,
      };
      steps.push(step);
      console.log(
        `${multiple}× (${offered}/s): served ${step.served_rps}/s p99 ${step.served_p99_ms} ms (${step.served_p99_vs_steady}× steady), shed ${step.shed_rps}/s answered in p99 ${step.shed_p99_ms} ms, ${step.errors} errors`,
      );
    }
    // Nothing crashed: every process still runs, and the gateway is ready.
    const running = target.children.every(({ child }) => child.exitCode === null && child.signalCode === null);
    const alive = running && (await fetch(`${target.url}/readyz`)).status === 200;
    const atTwice = steps.find((step) => step.multiple === 2);
    const result = {
      machine: { cpus: cpus().length },
      max_in_flight: Number(MAX_IN_FLIGHT),
      connections: CONNECTIONS,
      max_rps: maxRate,
      steady_p99_ms: steady.served_p99_ms,
      steps,
      alive_after: alive,
      shed_not_queued: Boolean(atTwice && atTwice.served_p99_vs_steady <= 3 && atTwice.errors === 0) && alive,
    };
    console.log(
      `at 2×: served p99 ${atTwice?.served_p99_vs_steady}× steady, ${atTwice?.errors} unanswered; shed, not queued: ${result.shed_not_queued}`,
    );
    const dir = join(import.meta.dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'overload.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await target.stop();
  }
}

/** An organization with 200 published events; the key's headers. */
async function seed(url) {
  const post = async (path, token, body) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const organization = await post('/admin/v1/organizations', ADMIN_TOKEN, { name: 'Overload bench', timezone: 'UTC' });
  const key = organization.data.api_key;
  for (let n = 0; n < 200; n += 1) {
    await post('/api/v1/events', key, {
      title: `Event ${n}`,
      start_date: '2030-01-01',
      start_time: '18:00',
      slots: 50,
      status: 'published',
    });
  }
  return { authorization: `Bearer ${key}` };
}

await main();
