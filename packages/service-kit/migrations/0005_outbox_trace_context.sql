-- Tracing: the W3C trace context (traceparent, tracestate) of the transaction that recorded an event, so the relay's
-- publish span and every consumer's handling span join the trace of the write that caused them. Null when tracing
-- was off at the write (and for rows written before this migration): the event is published without one.
ALTER TABLE outbox ADD COLUMN traceparent text, ADD COLUMN tracestate text;
