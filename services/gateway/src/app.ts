import swaggerUi from '@fastify/swagger-ui';
import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { authHook } from './auth/auth.hook.js';
import { KeyCache } from './auth/key-cache.js';
import { registerRateLimit } from './auth/rate-limit.js';
import { registerCors } from './http/cors.js';
import type { Config } from './config.js';
import type { IdentityRepository } from './db/identity.repository.js';
import { OpenApiAggregator } from './openapi/aggregator.js';
import { bodyLimitHook } from './proxy/body-limits.js';
import { assertionSigner } from './proxy/caller-assertion.js';
import { registerProxies } from './proxy/register-proxies.js';
import { ReplicaPool } from './proxy/replica-pool.js';
import { upstreamsOf, type ServiceName } from './proxy/route-table.js';
import { registerAdminRoutes } from './routes/admin.route.js';

export interface GatewayDeps {
  config: Config;
  identity: IdentityRepository;
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
}

/** The only door: API-key auth, rate limits, the admin API, merged API docs, and proxies to every service. */
export async function buildApp(deps: GatewayDeps): Promise<ServiceApp> {
  const { config } = deps;
  const app = await buildService({
    name: 'gateway',
    log: deps.log,
    readiness: deps.readiness,
    exposeOpenApi: false,
    verifyCallerAssertion: false, // it signs them (proxy/caller-assertion.ts)
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the gateway' } },
  });
  const cache = new KeyCache((key) => deps.identity.findKeyIdentity(key), config.AUTH_CACHE_TTL_MS);
  const upstreams = upstreamsOf(config);

  await registerCors(app, config.CORS_ORIGINS);
  app.addHook('onRequest', authHook(cache));
  app.addHook('onRequest', bodyLimitHook({ maxBodyBytes: config.MAX_BODY_BYTES, maxUploadBytes: config.MAX_UPLOAD_BYTES }));
  await registerRateLimit(app, { max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS });
  registerAdminRoutes(app, { identity: deps.identity, cache, adminToken: config.ADMIN_TOKEN });
  const replicas = replicaPools(upstreams, config.UPSTREAM_PROBE_MS);
  app.addHook('onReady', async () => Object.values(replicas).forEach((pool) => pool.start()));
  app.addHook('onClose', async () => Object.values(replicas).forEach((pool) => pool.stop()));
  await registerProxies(app, { replicas, timeoutMs: config.UPSTREAM_TIMEOUT_MS, signAssertion: assertionSigner(config) });

  const aggregator = new OpenApiAggregator(() => app.swagger() as Record<string, unknown>, upstreams, deps.log);
  app.get('/openapi.json', { schema: { hide: true } }, async () => aggregator.document());
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
