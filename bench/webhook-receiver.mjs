// The webhook receiver of the bench scenarios (bench/scenarios/webhooks.mjs). It runs in a child process of its own,
// so its work takes no turn from autocannon's event loop (process-cpu.mjs counts its CPU as the client's): answers 200
// as soon as a delivery's body is in, checks its Standard Webhooks signature, and keeps when it arrived. Endpoints are
// paths `/<key>`; each key's secret comes over IPC, and so do the questions (how many arrived; every arrival).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';

/** Now in epoch milliseconds with fractions: comparable across the bench's processes (one system clock). */
export const epochNow = () => performance.timeOrigin + performance.now();

/** Starts a receiver process; `url(key)` is an endpoint's URL, `close()` ends the process. */
export async function startWebhookReceiver() {
  const child = fork(import.meta.filename, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // It plays the customer's server, which is not on our machines at all: here it takes only the CPU the stack leaves.
  setPriority(child.pid, 19);
  const pending = new Map();
  let next = 0;
  child.on('message', ({ id, result }) => {
    pending.get(id)?.(result);
    pending.delete(id);
  });
  const ask = (op, args = {}) =>
    new Promise((resolve) => {
      next += 1;
      pending.set(next, resolve);
      child.send({ id: next, op, ...args });
    });
  const port = await ask('port');
  return {
    url: (key) => `http://127.0.0.1:${port}/${key}`,
    /** Makes `key` an endpoint whose deliveries must be signed with `secret`. */
    expect: (key, secret) => ask('expect', { key, secret }),
    /** Deliveries so far: `{total, invalid, duplicates}` over all endpoints. */
    counts: () => ask('counts'),
    /** Every valid arrival so far, as `[key, epoch ms, type, data.id]`. */
    arrivals: () => ask('arrivals'),
    async close() {
      child.disconnect();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

function serve() {
  const verifiers = new Map(); // key → Webhook
  const seen = new Set(); // key + webhook-id: a second delivery of one event (at least once) is counted apart
  const arrivals = [];
  const counts = { total: 0, invalid: 0, duplicates: 0 };
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = epochNow();
      response.end();
      const key = request.url.slice(1);
      counts.total += 1;
      let event;
      try {
        event = verifiers.get(key).verify(Buffer.concat(chunks).toString('utf8'), request.headers);
      } catch {
        counts.invalid += 1; // an unknown endpoint, or a missing or wrong signature
        return;
      }
      const once = `${key} ${request.headers['webhook-id']}`;
      if (seen.has(once)) counts.duplicates += 1;
      else arrivals.push([key, at, event.type, event.data?.id]);
      seen.add(once);
    });
  });
  const listening = once(server, 'listening');
  const answers = {
    port: () => listening.then(() => server.address().port),
    expect: ({ key, secret }) => void verifiers.set(key, new Webhook(secret)),
    counts: () => ({ ...counts }),
    arrivals: () => arrivals,
  };
  process.on('message', async ({ id, op, ...args }) => process.send({ id, result: await answers[op](args) }));
  process.on('disconnect', () => process.exit(0)); // the bench ended (or died): so does the receiver
  server.keepAliveTimeout = 60_000; // the sender's pooled connections stay open between bursts
  server.listen(0, '127.0.0.1');
}

if (import.meta.main) serve();
