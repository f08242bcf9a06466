import { context, propagation, ROOT_CONTEXT, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';

/*
 * Trace context (W3C traceparent and tracestate) across NATS and the outbox. Everything goes through the global
 * propagator of @opentelemetry/api: while no SDK is started it is the API's no-op, so these functions write and
 * read nothing and cost a function call or two on the hot paths.
 */

const headerSetter: TextMapSetter<MsgHdrs> = { set: (carrier, key, value) => carrier.set(key, value) };
const headerGetter: TextMapGetter<MsgHdrs | undefined> = {
  get: (carrier, key) => (carrier?.has(key) ? carrier.get(key) : undefined),
  keys: (carrier) => carrier?.keys() ?? [],
};

/** Adds the active context's traceparent (and tracestate) to headers of an outgoing NATS message. */
export function injectTraceHeaders(headers: MsgHdrs): void {
  propagation.inject(context.active(), headers, headerSetter);
}

/** Headers carrying the active context, or undefined when there is none to carry (tracing off, no active span). */
export function traceHeaders(): MsgHdrs | undefined {
  const carrier = activeTraceContext();
  if (carrier.traceparent === null) return undefined;
  const headers = natsHeaders();
  headers.set('traceparent', carrier.traceparent);
  if (carrier.tracestate !== null) headers.set('tracestate', carrier.tracestate);
  return headers;
}

/** The context a received NATS message was sent in (the root context when it carries none). */
export function contextOfHeaders(headers: MsgHdrs | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers, headerGetter) : ROOT_CONTEXT;
}

/** The active context as the outbox stores it with an event (both null when there is none). */
export interface StoredTraceContext {
  traceparent: string | null;
  tracestate: string | null;
}

export function activeTraceContext(): StoredTraceContext {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return { traceparent: carrier.traceparent ?? null, tracestate: carrier.tracestate ?? null };
}

/** The context an outbox row was written in, to parent what publishing it does. */
export function contextOfStored(stored: StoredTraceContext): Context {
  if (!stored.traceparent) return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent: stored.traceparent };
  if (stored.tracestate) carrier.tracestate = stored.tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** Runs `work` in the root context: background work that a request merely woke up must not join its trace. */
export function outsideAnyTrace<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}
