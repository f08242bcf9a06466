import type { FastifyBaseLogger } from 'fastify';
import { ROUTE_TABLE, type ServiceName } from '../proxy/route-table.js';
import { normalizeExamples, tidySchemas } from './components.js';
import { applyGatewayConventions } from './conventions.js';

interface OpenApiDocument {
  openapi?: string;
  info?: unknown;
  paths?: Record<string, unknown>;
  components?: {
    schemas?: Record<string, unknown>;
    securitySchemes?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    responses?: Record<string, unknown>;
  };
  [key: string]: unknown;
}

const CACHE_MS = 30_000;

/** The gateway's own operations (its other paths are the proxies' catch-alls). */
const OWN_PATHS = ['/admin/', '/api/v1/api-keys'];

/** The API's version: bumped (with a CHANGELOG entry) whenever a change breaks existing clients. */
const API_VERSION = '2.4.0';

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
    // operations of the API: of its own paths only the admin API and the keys' API are real. The services' paths follow.
    merged.paths = Object.fromEntries(Object.entries(merged.paths ?? {}).filter(([path]) => OWN_PATHS.some((own) => path.startsWith(own))));
    merged.info = {
      title: 'Scheduling and shop API',
      version: API_VERSION,
      description: 'Bookings, schedules and slots, events and event types, products and media, calendar connections, webhooks.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    };
    // Relative: "Try it out" and generated clients call the gateway that served the document.
    merged.servers = [{ url: '/', description: 'The gateway that served this document' }];
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
      // A prefix's `:name` is the document's `{name}`.
      const prefixes = ROUTE_TABLE.filter((route) => route.service === service).map((route) => route.prefix.replace(/:(\w+)/g, '{$1}'));
      for (const [path, item] of Object.entries(document.paths ?? {})) {
        if (prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) merged.paths![path] = item;
      }
      Object.assign(merged.components!.schemas!, document.components?.schemas ?? {});
    });
    tidySchemas(merged);
    normalizeExamples(merged);
    applyGatewayConventions({ paths: merged.paths!, components: merged.components });
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
