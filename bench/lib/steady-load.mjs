// Requests at a fixed rate, evenly spaced (an open loop): what "a steady load" means. Autocannon's overallRate is not
// that: each connection sends its quota for the second back to back and then waits for the next second, so every
// second starts with a burst at full concurrency and its latencies are those of a saturated service.
// The requests go from a worker thread (steady-load-worker.mjs) with a heap of its own: the bench's main thread holds
// every scenario's seed and results, and its garbage collection pauses, tens of milliseconds each, would otherwise
// stop the clock-keeping client and show up as the service's latency.
import { Worker } from 'node:worker_threads';

// The first WARMUP_S seconds go at the same rate but are not counted: they open the client's connections and
// refill the caches that expired while the stack sat idle before the run, a start-up cost and not the steady state.
const WARMUP_S = 1;

/**
 * `requests`: autocannon's request objects, taken in turn (`setupRequest(request)` may rewrite one before it goes,
 * `onResponse(status, body)` sees its answer). Resolves to autocannon-like totals and latency percentiles (ms) of the
 * `duration` seconds after the warm-up. With a `tracePath` (BENCH_STEADY_TRACE), every counted request's due time and
 * latency are appended to that file under a `# label` line (steady-load-worker.mjs): what a p99 is made of. With a
 * `goalMs`, the result's `over_goal` counts the requests slower than it and names the second that held most of them.
 * @param {{ url: string, requests: object[], rate: number, duration: number, connections: number, label?: string, goalMs?: number, tracePath?: string }} options
 */
export async function steadyLoad({
  url,
  requests,
  rate,
  duration,
  connections,
  label = url,
  goalMs,
  tracePath = process.env.BENCH_STEADY_TRACE,
}) {
  const warmup = Math.round(rate * WARMUP_S);
  const total = Math.round(rate * duration);
  const templateOf = (index) => requests[index % requests.length];
  // Every request built here, before the clock starts (a worker cannot call the scenario's functions).
  const prepared = Array.from({ length: warmup + total }, (_, index) => {
    const template = templateOf(index);
    const { method = 'GET', path, headers, body } = template.setupRequest?.({ ...template }) ?? template;
    return { method, path, headers, body, answerWanted: Boolean(template.onResponse) };
  });
  const worker = new Worker(new URL('./steady-load-worker.mjs', import.meta.url), {
    workerData: { url, rate, warmup, connections, requests: prepared, label, tracePath, goalMs },
  });
  return new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (message.answer) templateOf(message.answer.index).onResponse(message.answer.status, message.answer.body);
      if (message.result) resolve({ ...message.result, warmup_requests: warmup });
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the steady-load worker ended (${code}) before its result`)));
  });
}
