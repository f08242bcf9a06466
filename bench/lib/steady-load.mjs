// Requests at a fixed rate, evenly spaced (an open loop): what "a steady load" means. Autocannon's overallRate is not
// that: each connection sends its quota for the second back to back and then waits for the next second, so every
// second starts with a burst at full concurrency and its latencies are those of a saturated service.
// Each request's latency counts from the moment it was due, not from when it could be sent, so a backlog (a slow
// service holding every connection) shows in the numbers instead of quietly lowering the rate (coordinated omission).
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/**
 * `requests`: autocannon's request objects, taken in turn (`setupRequest(request)` may rewrite one before it goes,
 * `onResponse(status, body)` sees its answer). Resolves to autocannon-like totals and latency percentiles (ms).
 */
export async function steadyLoad({ url, requests, rate, duration, connections }) {
  const pool = new Pool(url, { connections });
  const latencies = [];
  const statusCodes = {};
  let errors = 0;
  let next = 0;
  const send = async (dueAt) => {
    const template = requests[next++ % requests.length];
    const { method = 'GET', path, headers, body } = template.setupRequest?.({ ...template }) ?? template;
    try {
      const answer = await pool.request({ method, path, headers, body });
      const text = await answer.body.text();
      statusCodes[answer.statusCode] = (statusCodes[answer.statusCode] ?? 0) + 1;
      template.onResponse?.(answer.statusCode, text);
      latencies.push(performance.now() - dueAt);
    } catch {
      errors += 1;
    }
  };
  const total = Math.round(rate * duration);
  const start = performance.now();
  const inFlight = [];
  for (let sent = 0; sent < total;) {
    const now = performance.now();
    // Everything due by now goes out (timers wake a little late); then sleep until the next one is due.
    for (; sent < total && start + (sent * 1000) / rate <= now; sent += 1) inFlight.push(send(start + (sent * 1000) / rate));
    const wait = start + (sent * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (share) => +(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0).toFixed(1);
  const non2xx = Object.entries(statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? 0 : count), 0);
  return {
    rps: Math.round(total / elapsed),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    p99_9_ms: at(0.999),
    requests: total,
    non2xx,
    errors,
    status_codes: statusCodes,
  };
}
