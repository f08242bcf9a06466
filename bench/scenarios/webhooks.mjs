// Benchmarks of webhook delivery, run through the gateway by `npm run bench`: bookings are created as in bookings.mjs
// while endpoints of the bench organization subscribe to `booking.created`, and a receiver in a process of its own
// (bench/webhook-receiver.mjs) answers 200 and checks every signature. The path: gateway → bookings → outbox → NATS →
// webhooks (fan-out into deliveries) → signed POST. This file sorts after the others and each scenario deletes its
// endpoints in `teardown`, so no other scenario's bookings are delivered anywhere.
import { cpuMeter } from '../process-cpu.mjs';
import { epochNow, startWebhookReceiver } from '../webhook-receiver.mjs';
import { creation, firstSlot, openSchedule } from './bookings.mjs';

const BASELINE = 'bookings: create on distinct free slots (50 connections)';
const LATENCY_RATE = 200; // bookings per second, as the issue asks
const BACKLOG_BOOKINGS = Number(process.env.BENCH_WEBHOOK_BOOKINGS ?? 1000);
/** How long `verify` waits for the last delivery after the last booking. */
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_WEBHOOK_DRAIN_S ?? 120) * 1000;

/** A schedule of its own, a receiver process, and `count` endpoints pointing at it (created through the API). */
async function seedEndpoints(ctx, count, name) {
  const receiver = await startWebhookReceiver();
  const state = { receiver, endpoints: [], created: new Map(), scheduleId: await openSchedule(ctx, name), base: firstSlot() };
  try {
    for (let i = 0; i < count; i += 1) {
      const key = `endpoint-${i}`;
      const reply = await ctx.api('POST', '/api/v1/webhook-endpoints', { url: receiver.url(key), events: ['booking.created'] });
      if (reply.status !== 201) throw new Error(`could not create a webhook endpoint: ${reply.status} ${JSON.stringify(reply.body)}`);
      await receiver.expect(key, reply.body.data.secret);
      state.endpoints.push(reply.body.data.id);
    }
  } catch (error) {
    await teardown(state, ctx);
    throw error;
  }
  return state;
}

/** Booking creations as in bookings.mjs, keeping each 201's booking id and the moment it came back. */
function createBookings(state, ctx) {
  // Called just before the run starts: the CPU of the run and of the drain after it, per delivery.
  state.meter = cpuMeter({ database: ctx.database });
  const request = creation(state.scheduleId, state.base, (index) => index);
  return [
    {
      ...request,
      onResponse(status, body) {
        if (status === 201) state.created.set(JSON.parse(body).data.id, epochNow());
      },
    },
  ];
}

/**
 * Waits until every booking of the schedule reached every endpoint (or DRAIN_TIMEOUT_MS), then checks what came. The
 * bookings are counted in the database: the last requests of a run are created but their 201s never read.
 */
async function verifyDeliveries(state, ctx) {
  state.runEndedAt = epochNow();
  const [{ bookings }] = await ctx.sql('SELECT count(*)::int AS bookings FROM bookings.bookings WHERE schedule_id = $1::uuid', [
    state.scheduleId,
  ]);
  const expected = bookings * state.endpoints.length;
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  let counts = await state.receiver.counts();
  while (counts.total - counts.invalid - counts.duplicates < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    counts = await state.receiver.counts();
  }
  const arrived = counts.total - counts.invalid - counts.duplicates;
  state.arrivals = (await state.receiver.arrivals()).filter(([, , type, id]) => type === 'booking.created' && state.created.has(id));
  state.cpuPerDelivery = state.meter.perRequest(arrived);
  if (counts.invalid > 0) throw new Error(`${counts.invalid} deliveries without a valid signature`);
  if (arrived < expected) throw new Error(`${arrived} of ${expected} deliveries arrived`);
  return `${expected} deliveries (${state.endpoints.length} × ${bookings} bookings), signatures valid, ${counts.duplicates} sent twice`;
}

/** Booking 201 → its delivery's arrival, per delivery; deliveries/s over all arrivals and after the last 201. */
function deliveryMeasures(state) {
  const latencies = state.arrivals.map(([, at, , id]) => at - state.created.get(id)).sort((a, b) => a - b);
  const times = state.arrivals.map(([, at]) => at).sort((a, b) => a - b);
  const lastCreated = Math.max(...state.created.values());
  const drained = times.filter((at) => at > lastCreated);
  const percentile = (q) =>
    latencies.length ? +latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)].toFixed(1) : null;
  const perSecond = (n, ms) => (ms > 0 ? Math.round((n * 1000) / ms) : null);
  return {
    endpoints: state.endpoints.length,
    bookings: state.created.size,
    deliveries: state.arrivals.length,
    latency_p50_ms: percentile(0.5),
    latency_p99_ms: percentile(0.99),
    latency_max_ms: percentile(1),
    deliveries_per_s: perSecond(times.length - 1, times.at(-1) - times[0]),
    // Only the webhooks service (and Postgres) at work: the rate its backlog drains at once bookings stopped.
    drain_per_s: drained.length > 1 ? perSecond(drained.length, drained.at(-1) - lastCreated) : null,
    last_after_run_s: times.length ? +((times.at(-1) - state.runEndedAt) / 1000).toFixed(1) : null,
    webhooks_cpu_ms_per_delivery: state.cpuPerDelivery?.webhooks ?? null,
  };
}

async function teardown(state, ctx) {
  for (const id of state.endpoints) await ctx.api('DELETE', `/api/v1/webhook-endpoints/${id}`);
  await state.receiver.close();
}

/** A scenario of `endpoints` receivers on bookings created by `options` (autocannon's: rate, amount). */
function webhookScenario({ endpoints, ...scenario }) {
  return {
    measuresTable: 'Webhooks (booking 201 → booking.created delivery at the receiver)',
    // The latency that matters here is the delivery's, reported by `report`; a booking's own is the baseline's.
    steady: false,
    seed: (ctx) => seedEndpoints(ctx, endpoints, `Bench: ${scenario.name}`),
    requests: createBookings,
    verify: verifyDeliveries,
    report: deliveryMeasures,
    teardown,
    ...scenario,
  };
}

export default [
  webhookScenario({
    name: 'bookings: create on distinct free slots, 5 webhook endpoints subscribed',
    goal: `>= 0.90 of the rate without endpoints`,
    relativeTo: BASELINE,
    endpoints: 5,
  }),
  webhookScenario({
    name: `webhooks: booking 201 → delivery, ${LATENCY_RATE} bookings/s, 1 endpoint`,
    endpoints: 1,
    options: { overallRate: LATENCY_RATE },
  }),
  webhookScenario({
    name: `webhooks: deliveries/s to 10 endpoints, ${BACKLOG_BOOKINGS} bookings flat out`,
    endpoints: 10,
    options: { amount: BACKLOG_BOOKINGS },
  }),
];
