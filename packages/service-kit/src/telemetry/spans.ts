import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * The kit's own spans: NATS request-reply and domain events, which no instrumentation library knows. Names follow
 * the OpenTelemetry conventions, with the contract's subject (without the test-run prefix, so names are stable):
 *   request-reply  `<subject>`          CLIENT in the caller (Bus.request), SERVER in the endpoint (RPC style)
 *   domain event   `publish <subject>`  PRODUCER, one per outbox row, child of the write that recorded the event
 *                  `process <subject>` CONSUMER, one per event, child of the publish span
 */
const tracer = trace.getTracer('@app/service-kit');

export { SpanKind };

/**
 * Runs `work` in a new span (its active context, so what it calls nests beneath), child of `parent` (default: the
 * active context); a throw marks the span an error and is rethrown. With no SDK started the span is the API's
 * non-recording one.
 */
export async function inSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Attributes; parent?: Context },
  work: () => Promise<T>,
): Promise<T> {
  const span = tracer.startSpan(name, { kind: options.kind, attributes: options.attributes }, options.parent ?? context.active());
  try {
    return await context.with(trace.setSpan(options.parent ?? context.active(), span), work);
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks the active span failed, for a failure that is handled (answered) rather than thrown out of it. */
export function markActiveSpanFailed(error: unknown): void {
  const span = trace.getActiveSpan();
  if (span) failed(span, error);
}

function failed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Attributes of a NATS message span (messaging semantic conventions). */
export function natsAttributes(subject: string, extra: Attributes = {}): Attributes {
  return { 'messaging.system': 'nats', 'messaging.destination.name': subject, ...extra };
}
