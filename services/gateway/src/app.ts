import swaggerUi from '@fastify/swagger-ui';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { asyncApiDocument } from '@app/contracts';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { AuthFailures } from './auth/auth-failures.js';
import { authHook } from './auth/request-auth.js';
import { KeyCache } from './auth/key-cache.js';
import { RecentKeys } from './auth/recent-keys.js';
import { registerRateLimit } from './auth/rate-limit.js';
import { keyKindHook } from './auth/key-kind.js';
import { OperationMatcher } from './auth/operation-matcher.js';
import { PublishableLimit } from './auth/publishable-limit.js';
import { registerBookingWidget } from './http/booking-widget.js';
import { registerCors } from './http/cors.js';
import { refuseMalformedPath } from './http/request-path.js';
import { TUNING, type Config, type Tuning } from './config.js';
import { registerAdminRoutes } from './routes/admin.route.js';
import { registerApiKeyRoutes } from './routes/api-keys.route.js';
import { LastUsedWriter } from './identity/last-used.js';
import type { IdentityRepository } from './identity/identity.repository.js';
import { OpenApiAggregator } from './openapi/aggregator.js';
import { bodyLimitHook } from './proxy/body-limits.js';
import { assertionMinter } from './proxy/caller-assertion.js';
import { registerProxies } from './proxy/register-proxies.js';
import { ReplicaPool } from './proxy/replica-pool.js';
import { upstreamsOf, type ServiceName } from './proxy/route-table.js';

export interface GatewayDeps {
  config: Config;
  identity: IdentityRepository;
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  /** The shared rate-limit store, when RATE_LIMIT_REDIS_URL is set. */
  redis?: Redis;
  /** `TUNING`, or a test's values in its place. */
  tuning?: Tuning;
}

/** The only door: API-key auth, rate limits, the admin API, merged API docs, the events' AsyncAPI document, and proxies to every service. */
export async function buildApp(deps: GatewayDeps): Promise<ServiceApp> {
  const { config, tuning = TUNING } = deps;
  const app = await buildService({
    name: 'gateway',
    log: deps.log,
    readiness: deps.readiness,
    exposeOpenApi: false,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    verifyCallerAssertion: false, // it mints them (proxy/caller-assertion.ts)
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the gateway' } },
  });
  const cache = new KeyCache((key) => deps.identity.findKeyIdentity(key), tuning.authCacheTtlMs);
  const upstreams = upstreamsOf(config);

  // The table of operations → what each key kind may call, compiled once: CORS and the key-kind check read it.
  const operations = new OperationMatcher();
  const lastUsed = new LastUsedWriter((ids) => deps.identity.touchKeys(ids), tuning.lastUsedFlushMs, deps.log);
  app.addHook('onReady', async () => lastUsed.start());
  app.addHook('onClose', async () => lastUsed.stop());

  app.addHook('onRequest', refuseMalformedPath);
  await registerCors(app, config.CORS_ORIGINS, operations);
  await registerRateLimit(app, {
    max: config.RATE_LIMIT_MAX,
    windowMs: tuning.rateLimitWindowMs,
    redis: deps.redis,
    redisPrefix: config.RATE_LIMIT_REDIS_PREFIX,
  });
  const failures = new AuthFailures(app, config.AUTH_FAILURES_MAX);
  app.addHook('onRequest', authHook({ cache, failures, recent: new RecentKeys() }));
  app.addHook('onRequest', async (request) => {
    if (request.apiKey) lastUsed.used(request.apiKey.apiKeyId);
  });
  const publishableLimit = new PublishableLimit(app, { max: config.PUBLISHABLE_RATE_LIMIT_MAX, windowMs: tuning.rateLimitWindowMs });
  app.addHook('onRequest', keyKindHook({ matcher: operations, publishableLimit }));
  app.addHook('onRequest', bodyLimitHook({ maxBodyBytes: tuning.maxBodyBytes, maxUploadBytes: config.MAX_UPLOAD_BYTES }));
  registerAdminRoutes(app, { identity: deps.identity, cache, failures, adminToken: config.ADMIN_TOKEN });
  registerApiKeyRoutes(app, { identity: deps.identity, cache });
  const replicas = replicaPools(upstreams, tuning.upstreamProbeMs);
  app.addHook('onReady', async () => Object.values(replicas).forEach((pool) => pool.start()));
  app.addHook('onClose', async () => Object.values(replicas).forEach((pool) => pool.stop()));
  await registerProxies(app, { replicas, timeoutMs: config.UPSTREAM_TIMEOUT_MS, assertions: assertionMinter(config) });

  const aggregator = new OpenApiAggregator(() => app.swagger() as Record<string, unknown>, upstreams, deps.log);
  app.get('/openapi.json', { schema: { hide: true } }, async () => aggregator.document());
  // The domain events (AsyncAPI 3), written from the contracts this gateway was built with: public, like /openapi.json.
  const asyncApi = asyncApiDocument();
  app.get('/asyncapi.json', { schema: { hide: true } }, async () => asyncApi);
  await registerBookingWidget(app, { demo: config.NODE_ENV === 'development' || config.NODE_ENV === 'test' });
  let latest: Record<string, unknown> = {};
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    uiHooks: {
      // A route hook typed in the callback form (onRequestHookHandler), so it calls `done` rather than returning a promise.
      onRequest: (_request, _reply, done) => {
        aggregator.document().then((document) => {
          latest = document;
          done();
        }, done);
      },
    },
    transformSpecificationClone: false,
    transformSpecification: () => latest,
  });
  return app;
}

function replicaPools(upstreams: Record<ServiceName, string[]>, probeMs: number): Record<ServiceName, ReplicaPool> {
  const probe = { intervalMs: probeMs, timeoutMs: Math.min(probeMs, 1000) };
  return Object.fromEntries(Object.entries(upstreams).map(([service, urls]) => [service, new ReplicaPool(urls, probe)])) as Record<
    ServiceName,
    ReplicaPool
  >;
}

/**
 * TRUST_PROXY for Fastify: addresses as they are; a hop count as a function, since Fastify gives a bare number no
 * trust (it cannot tell the proxies from a client that sends enough hops itself). The operator who sets a count says
 * the gateway is reachable only through that many proxies.
 */
function trustProxyOption(trust: Config['TRUST_PROXY']): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}
