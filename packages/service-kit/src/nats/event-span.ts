import type { JsMsg } from '@nats-io/jetstream';
import { inSpan, natsAttributes, SpanKind } from '../telemetry/spans.js';
import { contextOfHeaders } from '../telemetry/trace-context.js';
import type { ReceivedEvent } from './event-handler.js';

/** An event read for its handler, with `traced` to run its handling in its own CONSUMER span. */
export interface TracedEvent extends ReceivedEvent {
  /**
   * Runs `work` (applying the event, or its whole transaction when it is handled alone) in a span `process <subject>`,
   * child of the publish span whose traceparent the message carries. A batch makes one such span per event, so each
   * event's handling joins the trace of the write that caused it. `duplicate`: an event the inbox had already seen.
   */
  traced(work: () => Promise<void>, options?: { duplicate: boolean }): Promise<void>;
}

export function tracedEvent(msg: JsMsg, event: ReceivedEvent, subject: string, durable: string): TracedEvent {
  return {
    ...event,
    traced: (work, options) => {
      const attributes = natsAttributes(subject, {
        'messaging.operation.type': 'process',
        'messaging.message.id': event.id,
        'messaging.consumer.group.name': durable,
        'messaging.message.delivery_count': msg.info.deliveryCount,
        ...(options && { 'app.event.duplicate': options.duplicate }),
      });
      return inSpan(`process ${subject}`, { kind: SpanKind.CONSUMER, attributes, parent: contextOfHeaders(msg.headers) }, work);
    },
  };
}
