import { describe, expect, it } from 'vitest';
import { dataEnvelope, scheduleRecordSchema } from '@app/contracts';
import { eventually, preparedForTests, startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';
import { startOtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** OTLP's SpanKind numbers. */
const Kind = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

/**
 * Tracing through the real processes: every one exports OTLP/JSON to a receiver in this test, and one booking made
 * through the gateway must come back as ONE trace across the gateway, bookings, scheduling's availability endpoint,
 * bookings' outbox relay and scheduling's bookings projection.
 */
describe('tracing across the stack (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  const receiver = startedForTests(startOtlpReceiver, { stop: (started) => started.close() });
  const stack = startedForTests(
    () =>
      startE2eStack({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        CALENDAR_SYNC_POLL_MS: '3600000', // the database is shared with other files' stacks and their fake calendars
      }),
    { timeout: 120_000 },
  );
  /** An organization with a schedule open on weekdays' office hours. */
  const desk = preparedForTests(async () => {
    const { key } = await createOrganization(stack, 'Traced');
    const schedule = await stack.call('POST', '/api/v1/schedules', {
      key,
      body: { name: 'Desk', timezone: 'UTC', availability: WEEK.map((d) => ({ day: d, start: '09:00', end: '17:00' })) },
    });
    return { key, scheduleId: dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id };
  });

  it('when a booking is created, then the gateway, bookings, scheduling, the relay, the projection and calendar-sync consumer make one trace', async () => {
    const { key, scheduleId } = desk;
    const created = await stack.call('POST', '/api/v1/bookings', {
      key,
      body: {
        schedule_id: scheduleId,
        start_time: `${day(3)}T10:00:00.000Z`,
        end_time: `${day(3)}T10:30:00.000Z`,
        attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
    });
    expect(created.status).toBe(201);

    const entry = await eventually(async () =>
      receiver.spans.find((s) => s.service === 'gateway' && s.kind === Kind.SERVER && s.name === 'POST /api/v1/bookings'),
    );
    expect(entry.parentSpanId).toBe(''); // the trace starts at the gateway
    // Each process exports on its own schedule (batches every 100 ms): wait until every expected span is in and
    // every span's parent has arrived too, so the trace is whole before it is judged.
    const found = await eventually(async () => {
      const spans = receiver.spans.filter((s) => s.traceId === entry.traceId);
      const one = (service: string, kind: number, name: string) => {
        const matching = spans.filter((s) => s.service === service && s.kind === kind && s.name === name);
        return matching.length === 1 ? matching[0] : undefined;
      };
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const expected = {
        proxied: one('gateway', Kind.CLIENT, 'POST'), // undici, the gateway's proxy
        served: one('bookings', Kind.SERVER, 'POST /api/v1/bookings'),
        asked: one('bookings', Kind.CLIENT, 'scheduling.availability.check'),
        answered: one('scheduling', Kind.SERVER, 'scheduling.availability.check'),
        published: one('bookings', Kind.PRODUCER, 'publish bookings.booking.created'),
        processed: one('scheduling', Kind.CONSUMER, 'process bookings.booking.created'),
        // calendar-sync consumes the bookings' states too (write-back), in the same trace.
        consumed: one('calendar-sync', Kind.CONSUMER, 'process bookings.booking.created'),
        written: spans.find((s) => s.service === 'bookings' && s.kind === Kind.CLIENT && s.attributes['db.system.name'] === 'postgresql'),
      };
      const whole = spans.every((s) => s === entry || byId.has(s.parentSpanId));
      const all = Object.values(expected).every((span) => span !== undefined);
      return whole && all ? { spans, byId, ...(expected as { [K in keyof typeof expected]: ReceivedSpan }) } : undefined;
    }, 15_000);
    const { spans, byId, proxied, served, asked, answered, published, processed, consumed, written } = found;
    const descends = (span: ReceivedSpan, ancestor: ReceivedSpan) => {
      for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) if (at === ancestor) return true;
      return false;
    };

    expect(descends(proxied, entry)).toBe(true);
    expect(served.parentSpanId).toBe(proxied.spanId); // traceparent over HTTP
    expect(descends(asked, served)).toBe(true);
    expect(answered.parentSpanId).toBe(asked.spanId); // traceparent in the NATS request's headers
    expect(descends(written, served)).toBe(true); // pg, instrumented through the ESM loader hook
    expect(descends(published, served)).toBe(true); // the outbox row's stored traceparent
    expect(processed.parentSpanId).toBe(published.spanId); // traceparent in the JetStream message's headers
    expect(processed.attributes).toMatchObject({ 'messaging.system': 'nats', 'messaging.consumer.group.name': 'scheduling-bookings' });
    expect(consumed.parentSpanId).toBe(published.spanId);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gateway', 'bookings', 'scheduling', 'calendar-sync']));
    // Every span hangs from the gateway's; the relay's polls, woken by this request, are not in its trace.
    for (const span of spans) if (span !== entry) expect(descends(span, entry), `${span.service} ${span.name}`).toBe(true);
    expect(spans.filter((s) => String(s.attributes['db.query.text']).includes('FROM outbox'))).toEqual([]);
  });
});
