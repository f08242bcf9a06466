import type { FastifyBaseLogger } from 'fastify';
import { ROUTE_TABLE, type ServiceName } from './route-table.js';

interface OpenApiDocument {
  openapi?: string;
  info?: unknown;
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

const CACHE_MS = 30_000;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

type Operation = { requestBody?: unknown; responses?: Record<string, unknown> };

/**
 * What the gateway itself may answer on any proxied operation, added where the service's document does
 * not declare it: the key check (public paths too, when a key is sent), the body limit, the rate limit and
 * an upstream that did not answer.
 */
function withGatewayResponses(item: unknown): unknown {
  const operations = item as Partial<Record<(typeof METHODS)[number], Operation>>;
  for (const method of METHODS) {
    const operation = operations[method];
    if (!operation) continue;
    const responses = (operation.responses ??= {});
    const add = (status: string, description: string) => {
      responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    };
    add('401', 'UNAUTHORIZED: missing, malformed, unknown or revoked API key');
    if (operation.requestBody) add('413', 'PAYLOAD_TOO_LARGE: the body is over the limit');
    add('429', 'RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds');
    add('503', 'UPSTREAM_UNAVAILABLE: a service this request needs did not answer in time');
  }
  return item;
}

/**
 * One OpenAPI document for the whole API: the gateway's own (admin) paths plus every service's,
 * fetched from the services and cached. A service that does not answer is left out until it does.
 */
export class OpenApiAggregator {
  private cached: { at: number; document: OpenApiDocument } | undefined;

  constructor(
    private readonly own: () => OpenApiDocument,
    private readonly upstreams: Record<ServiceName, string[]>,
    private readonly log: FastifyBaseLogger,
  ) {}

  async document(): Promise<OpenApiDocument> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.document;
    const merged = structuredClone(this.own());
    // The gateway's own document also holds its proxy catch-alls (`/api/v1/bookings/{*}` …), which are not
    // operations of the API: of its own paths only the admin API is real. The services' paths follow.
    merged.paths = Object.fromEntries(Object.entries(merged.paths ?? {}).filter(([path]) => path.startsWith('/admin/')));
    merged.info = {
      title: 'Scheduling and shop API',
      version: '1.0.0',
      description: 'Bookings, schedules and slots, events and event types, products and media, calendar connections.',
    };
    merged.components ??= {};
    merged.components.schemas ??= {};
    const services = Object.keys(this.upstreams) as ServiceName[];
    const documents = await Promise.all(services.map((service) => this.fetchServiceDocument(service)));
    let complete = true;
    services.forEach((service, index) => {
      const document = documents[index];
      if (!document) {
        complete = false;
        return;
      }
      const prefixes = ROUTE_TABLE.filter((route) => route.service === service).map((route) => route.prefix);
      for (const [path, item] of Object.entries(document.paths ?? {})) {
        if (prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) merged.paths![path] = withGatewayResponses(item);
      }
      Object.assign(merged.components!.schemas!, document.components?.schemas ?? {});
    });
    if (complete) this.cached = { at: Date.now(), document: merged };
    return merged;
  }

  private async fetchServiceDocument(service: ServiceName): Promise<OpenApiDocument | undefined> {
    const url = `${this.upstreams[service][0]}/openapi.json`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    } catch (error) {
      this.log.warn({ err: error, service }, 'could not fetch a service OpenAPI document');
      return undefined;
    }
  }
}
