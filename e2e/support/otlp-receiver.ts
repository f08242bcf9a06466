import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** A span as an OTLP/JSON export carries it (ids in hex), with the service.name of its resource. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, unknown>;
}

const attributeSchema = z.object({ key: z.string(), value: z.record(z.string(), z.unknown()) });
const exportSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: z.array(attributeSchema).default([]) }),
      scopeSpans: z.array(
        z.object({
          spans: z.array(
            z.object({
              traceId: z.string(),
              spanId: z.string(),
              parentSpanId: z.string().optional(),
              name: z.string(),
              kind: z.number(),
              attributes: z.array(attributeSchema).default([]),
            }),
          ),
        }),
      ),
    }),
  ),
});

/** An attribute's value, whichever of OTLP's typed fields (stringValue, intValue, boolValue) holds it. */
function valuesOf(attributes: z.infer<typeof attributeSchema>[]): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
}

export interface OtlpReceiver {
  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporters post to `<url>/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

/**
 * A collector's OTLP/HTTP traces endpoint, in-process, for exporters set to OTEL_EXPORTER_OTLP_PROTOCOL=http/json:
 * keeps every span it is sent, answers 200 with an empty partial success.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = exportSchema.safeParse(request.url === '/v1/traces' ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null);
      if (!body.success) {
        response.writeHead(400).end();
        return;
      }
      for (const resourceSpan of body.data.resourceSpans) {
        const service = String(valuesOf(resourceSpan.resource.attributes)['service.name']);
        for (const scope of resourceSpan.scopeSpans)
          for (const span of scope.spans)
            spans.push({ ...span, service, parentSpanId: span.parentSpanId ?? '', attributes: valuesOf(span.attributes) });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
