import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import { AppError } from '../errors.js';
import { registriesOf } from './metrics.js';

/** When a process refuses new requests (MAX_IN_FLIGHT, SHED_EVENT_LOOP_DELAY_MS); 0 turns a limit off. */
export interface LoadLimits {
  maxInFlight: number;
  maxEventLoopDelayMs: number;
}

/** Probes and metrics are answered whatever the load: an orchestrator must see a busy process, not a dead one. */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/**
 * How often the event loop's delay is sampled: how late a timer of this period fires is how long everything queued
 * before it waited, and the last sample decides until the next one. (node's monitorEventLoopDelay histogram was
 * tried first: it never recorded one long block, the sign of a loop that is busy with one thing.)
 */
const SAMPLE_MS = 250;

interface SheddingState {
  limits: LoadLimits;
  inFlight: number;
  loopDelayed: boolean;
  timer?: NodeJS.Timeout;
  stopped?: boolean;
}

const states = new WeakMap<object, SheddingState>();

function overloaded(): AppError {
  // The error handler adds `Retry-After: 1` to every 503 UPSTREAM_UNAVAILABLE.
  return new AppError('UPSTREAM_UNAVAILABLE', 'The service is overloaded; retry after a second');
}

/**
 * Sheds load instead of queueing it: past MAX_IN_FLIGHT requests at once, or while the event loop runs late by more
 * than SHED_EVENT_LOOP_DELAY_MS on average (its CPU is saturated and every queued request waits behind the others),
 * a new request is answered 503 `UPSTREAM_UNAVAILABLE` with `Retry-After` at once, before authentication or parsing
 * spends anything on it. Queued instead, every request would wait until all of them time out. Registered first, as
 * an onRequest hook; the limits come with `useLoadShedding` (startService, from the config): none until then.
 */
export function registerLoadShedding(app: FastifyInstance): void {
  const shed = new Counter({
    name: 'http_requests_shed_total',
    help: 'Requests refused with 503 because the process was overloaded, by reason (in_flight, event_loop)',
    labelNames: ['reason'],
    registers: [registriesOf(app)[0]!],
  });
  app.addHook('onRequest', async (request, reply) => {
    const state = states.get(app);
    if (!state || EXEMPT_PATHS.has(request.url.split('?')[0] ?? '')) return;
    const { maxInFlight } = state.limits;
    if (maxInFlight > 0 && state.inFlight >= maxInFlight) {
      shed.inc({ reason: 'in_flight' });
      throw overloaded();
    }
    if (state.loopDelayed) {
      shed.inc({ reason: 'event_loop' });
      throw overloaded();
    }
    state.inFlight += 1;
    // `close` comes once per response, sent or aborted, so the count cannot drift.
    reply.raw.once('close', () => {
      state.inFlight -= 1;
    });
  });
  app.addHook('onClose', async () => stopMonitor(states.get(app)));
}

/** Sets the limits of an app built by buildService (startService does, from MAX_IN_FLIGHT and SHED_EVENT_LOOP_DELAY_MS). */
export function useLoadShedding(app: FastifyInstance, limits: LoadLimits): void {
  const previous = states.get(app);
  stopMonitor(previous);
  const state: SheddingState = { limits, inFlight: previous?.inFlight ?? 0, loopDelayed: false };
  if (limits.maxEventLoopDelayMs > 0) {
    let due = performance.now() + SAMPLE_MS;
    const sample = () => {
      const now = performance.now();
      state.loopDelayed = now - due > limits.maxEventLoopDelayMs;
      due = now + SAMPLE_MS;
      if (!state.stopped) state.timer = setTimeout(sample, SAMPLE_MS).unref();
    };
    state.timer = setTimeout(sample, SAMPLE_MS).unref();
  }
  states.set(app, state);
}

function stopMonitor(state: SheddingState | undefined): void {
  if (!state) return;
  if (state.timer) clearTimeout(state.timer);
  state.stopped = true;
}
