// The client of steady-load.mjs, in a worker thread: sends `requests` (built already) at `rate`, evenly spaced, the
// first `warmup` uncounted, and posts back the answers asked for and then the totals.
// Each request's latency counts from the moment it was due, not from when it could be sent, so a backlog (a slow
// service holding every connection) shows in the numbers instead of quietly lowering the rate (coordinated omission).
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { url, rate, warmup, connections, requests, label, tracePath, goalMs } = workerData;
const pool = new Pool(url, { connections });
const latencies = [];
// By answer, for the overload curve: what the served (2xx) waited, and how fast the shed (503) were told.
const servedLatencies = [];
const shedLatencies = [];
// Each counted request's due time and latency, in a typed array filled in place (no garbage): what the slow requests'
// seconds are read from, and BENCH_STEADY_TRACE's file.
const trace = new Float64Array((requests.length - warmup) * 2);
const statusCodes = {};
let errors = 0;

async function send(index, dueAt) {
  const counted = index >= warmup;
  const { method, path, headers, body, answerWanted } = requests[index];
  try {
    const answer = await pool.request({ method, path, headers, body });
    // A body nobody reads is discarded undecoded: less garbage, fewer of the worker's own pauses.
    if (answerWanted) parentPort.postMessage({ answer: { index, status: answer.statusCode, body: await answer.body.text() } });
    else await answer.body.dump();
    if (!counted) return;
    const latency = performance.now() - dueAt;
    latencies.push(latency);
    if (answer.statusCode < 300) servedLatencies.push(latency);
    else if (answer.statusCode === 503) shedLatencies.push(latency);
    trace[(index - warmup) * 2] = dueAt;
    trace[(index - warmup) * 2 + 1] = latency;
    statusCodes[answer.statusCode] = (statusCodes[answer.statusCode] ?? 0) + 1;
  } catch {
    if (counted) errors += 1;
  }
}

const start = performance.now();
const dueAt = (index) => start + (index * 1000) / rate;
// A count rather than an array of the requests' promises, which would fill the old generation until the end.
let pending = 0;
const { promise: drained, resolve: allAnswered } = Promise.withResolvers();
const answered = () => {
  pending -= 1;
  if (pending === 0 && sent === requests.length) allAnswered();
};
let sent = 0;
while (sent < requests.length) {
  const now = performance.now();
  // Everything due by now goes out (timers wake a little late); then sleep until the next one is due.
  for (; sent < requests.length && dueAt(sent) <= now; sent += 1) {
    pending += 1;
    void send(sent, dueAt(sent)).finally(answered);
  }
  const wait = dueAt(sent) - performance.now();
  if (wait > 0) await sleep(wait);
}
if (pending > 0) await drained;
const elapsed = (performance.now() - dueAt(warmup)) / 1000;
await pool.close();

if (tracePath) writeTrace();
for (const list of [latencies, servedLatencies, shedLatencies]) list.sort((a, b) => a - b);
const percentile = (list, share) => +(list[Math.min(list.length - 1, Math.floor(share * list.length))] ?? 0).toFixed(1);
const at = (share) => percentile(latencies, share);
const total = requests.length - warmup;
parentPort.postMessage({
  result: {
    rps: Math.round(total / elapsed),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    p99_9_ms: at(0.999),
    requests: total,
    non2xx: Object.entries(statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? 0 : count), 0),
    errors,
    status_codes: statusCodes,
    served_rps: Math.round(servedLatencies.length / elapsed),
    served_p99_ms: percentile(servedLatencies, 0.99),
    shed_p99_ms: percentile(shedLatencies, 0.99),
    ...(goalMs === undefined ? {} : { over_goal: overGoal(goalMs) }),
  },
});

/**
 * The requests slower than `goal` ms, and the second of the run that held most of them (due times, ms since the epoch):
 * packed into one second they are a stall; spread over the run, the service kept up too narrowly.
 */
function overGoal(goal) {
  const due = [];
  for (let at = 0; at < trace.length; at += 2) if (trace[at] !== 0 && trace[at + 1] > goal) due.push(trace[at]);
  due.sort((a, b) => a - b);
  let densest = { from: 0, count: 0 };
  for (let first = 0, last = 0; last < due.length; last += 1) {
    while (due[last] - due[first] > 1000) first += 1;
    if (last - first + 1 > densest.count) densest = { from: due[first], count: last - first + 1 };
  }
  const epoch = (ms) => Math.round(performance.timeOrigin + ms);
  return {
    count: due.length,
    ...(due.length === 0
      ? {}
      : {
          densest_second: {
            from_epoch_ms: epoch(densest.from),
            at_s: +((densest.from - dueAt(warmup)) / 1000).toFixed(1),
            count: densest.count,
          },
          first_at_s: +((due[0] - dueAt(warmup)) / 1000).toFixed(1),
          last_at_s: +((due.at(-1) - dueAt(warmup)) / 1000).toFixed(1),
        }),
  };
}

/**
 * One line per counted request: when it was due (ms since the epoch, to set beside other processes' logs), its
 * latency (ms), and when it was due within the run (s); unanswered requests are left out.
 */
function writeTrace() {
  const lines = [`# ${label}: ${rate}/s from ${new Date(performance.timeOrigin + dueAt(warmup)).toISOString()}`];
  for (let at = 0; at < trace.length; at += 2) {
    if (trace[at] === 0) continue;
    const due = trace[at];
    lines.push(`${Math.round(performance.timeOrigin + due)} ${trace[at + 1].toFixed(1)} ${((due - dueAt(warmup)) / 1000).toFixed(3)}`);
  }
  appendFileSync(tracePath, `${lines.join('\n')}\n`);
}
