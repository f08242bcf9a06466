import type { IncomingMessage } from 'node:http';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { BaseConfig } from '../config.js';

/**
 * Query parameters whose values may be logged: paging, dates, ids and flags. Anything else (OAuth `code` and
 * `state`, `attendee_email`, `search`, calendar ids that are email addresses, whatever a client invents) is logged
 * by name only, so a log line never carries a credential or personal data.
 */
const LOGGABLE_QUERY = new Set([
  'limit',
  'offset',
  'status',
  'scheduleId',
  'schedule_id',
  'startDate',
  'endDate',
  'start_date',
  'end_date',
  'timezone',
  'event_type_id',
  'site_id',
  'include_counts',
  'past',
  'upcoming',
  'in_stock',
  'min_price',
  'max_price',
  'provider',
  'error',
]);
const HIDDEN = '[redacted]';

/** A request URL as it may be logged: the path, and the query with the values of unlisted parameters hidden. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = new URLSearchParams(url.slice(mark + 1));
  const kept = [...query].map(([name, value]): [string, string] => [name, LOGGABLE_QUERY.has(name) ? value : HIDDEN]);
  const text = new URLSearchParams(kept).toString().replaceAll(encodeURIComponent(HIDDEN), HIDDEN);
  return text === '' ? url.slice(0, mark) : `${url.slice(0, mark)}?${text}`;
}

/** pino's `req` serializer: method, loggable URL and the request id, never headers (they hold keys and cookies). */
function serializeRequest(request: IncomingMessage & { id?: unknown }) {
  return { id: request.id, method: request.method, url: loggableUrl(request.url ?? '') };
}

/**
 * The active span's ids on every line logged inside it (HTTP request, NATS request, event handling), so a log line
 * leads to its trace and back. Nothing while tracing is off: no span is ever active then. A new object each time:
 * pino merges the line's fields into it.
 */
function traceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** One pino logger per process, tagged with the service; Fastify adds the request id to every request's lines. */
export function createLogger(config: Pick<BaseConfig, 'LOG_LEVEL'>, service: string, destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    base: { service },
    mixin: traceIds,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { req: serializeRequest },
    redact: ['req.headers.authorization', 'headers.authorization', '*.access_token', '*.refresh_token'],
  };
  return destination ? pino(options, destination) : pino(options);
}
