import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';

/**
 * A tracer provider registered globally for one test file, as the SDK registers it in a service (W3C propagator,
 * AsyncLocalStorage context), keeping finished spans in memory. `stop` puts the API's no-ops back.
 */
export function inMemoryTracing(): { spans: () => ReadableSpan[]; stop: () => Promise<void> } {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  return {
    spans: () => exporter.getFinishedSpans(),
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
