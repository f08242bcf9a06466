import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type FastifyReply,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataEnvelope, REQUEST_ID_HEADER } from '@app/contracts';
import { z } from 'zod';
import { errorHandler, frameworkErrorHandler, notFoundHandler } from './error-handler.js';
import { organizationId } from './organization.js';
import { registerCallerAssertion } from './caller-assertion.js';
import { registerHealth, type ReadinessCheck } from './health.js';
import { inputGuard } from './input-guard.js';
import { useStrictJsonParser } from './json-body.js';
import { registerNoStore } from './no-store.js';
import { registerLoadShedding } from './load-shedding.js';
import { metricsResponse, registerMetrics, registriesOf, useMetricsAccess } from './metrics.js';
import { applyHttpTimeouts, serverOptions, type HttpTimeouts } from './server-options.js';
import type { BaseConfig } from '../config.js';
import { KIT_TUNING } from '../tuning.js';
import { createLogger, loggableUrl } from '../runtime/logger.js';
import type { Logger } from 'pino';
import { requestIdFrom } from './request-id.js';
import { registerIdempotency } from './idempotency/idempotency-hooks.js';
import { applyRouteConventions, responseSerializerCompiler } from './route-conventions.js';

const pingSchema = dataEnvelope(z.object({ service: z.string(), organization_id: z.string() }));

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** Longest path parameter the router takes (Fastify's default is 100); beyond it, 404. */
const MAX_PARAM_LENGTH = 1000;

/** Logs each request once, when it completes, with method, route, status and time (instead of two lines). */
class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // The line is not built when it would not be written (below info): its loggable URL parses the query each time.
    if (!error && (request.log as Partial<Logger>).isLevelEnabled?.('info') === false) return;
    const line = {
      method: request.method,
      url: loggableUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}

export interface ServiceOptions {
  name: string;
  description?: string;
  /** The process's pino logger; without one, Fastify logs at info. */
  log?: FastifyBaseLogger;
  readiness?: ReadinessCheck[];
  bodyLimit?: number;
  /** OpenAPI security schemes beyond the API key (the gateway's admin token). */
  securitySchemes?: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
  /** False when the service serves its own `/openapi.json` (the gateway merges every service's). */
  exposeOpenApi?: boolean;
  /** Which peers' `X-Forwarded-For` to believe for `request.ip` (the gateway's TRUST_PROXY); none by default. */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * False for the gateway, which mints caller assertions instead of verifying them. Every service verifies the
   * assertion of each request (but health, readiness, metrics and the API document) before its routes run.
   */
  verifyCallerAssertion?: boolean;
}

export type ServiceApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A Fastify instance set up the way every service is: zod validation and OpenAPI, error shapes, request ids, health, metrics. */
export async function buildService(options: ServiceOptions): Promise<ServiceApp> {
  const app = Fastify({
    ...(options.log ? { loggerInstance: options.log } : { loggerInstance: createLogger({ LOG_LEVEL: 'info' }, options.name) }),
    // startService applies its own (a test's shorter ones) when it boots the service.
    ...serverOptions(KIT_TUNING.httpTimeouts),
    trustProxy: options.trustProxy ?? false,
    genReqId: requestIdFrom,
    logController: new RequestLogController({
      requestIdLogLabel: 'request_id',
      // Probes would drown the log; everything else is logged once, on completion.
      disableRequestLogging: (request) => QUIET_PATHS.has(request.url.split('?')[0] ?? ''),
    }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // Public media file names run to 105 characters; a longer id still reaches its route, which answers 404.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  useStrictJsonParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(process.env.NODE_ENV === 'test', app.log));
  app.addHook('onRoute', applyRouteConventions);
  // Idempotency-Key on every creating route (the key store is attached by startService).
  registerIdempotency(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // Before any route or proxy is registered, so every answer of the app passes through it.
  registerNoStore(app);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    // An empty body with a JSON content type (DELETE from many clients) is no body, not malformed JSON.
    const length = request.headers['content-length'];
    if (length === '0' || (length === undefined && request.headers['transfer-encoding'] === undefined))
      delete request.headers['content-type'];
  });

  // The organization of a request comes only from the gateway's caller assertion for this service (http/caller-assertion.ts).
  if (options.verifyCallerAssertion !== false) registerCallerAssertion(app);
  app.addHook('preValidation', inputGuard);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.name, version: '1.0.0', description: options.description ?? '' },
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'API key `sk_…`' }, ...options.securitySchemes },
      },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  if (options.exposeOpenApi !== false) app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // An authenticated no-op through the gateway (`/api/v1/ping/<service>`): lets a client check its key
  // reaches each service, and gives the benchmarks a proxy baseline.
  const operationId = `ping${options.name.replace(/(^|-)(\w)/g, (_, _dash: string, letter: string) => letter.toUpperCase())}`;
  const summary = `Check that the key reaches the ${options.name} service`;
  app.get(
    `/api/v1/ping/${options.name}`,
    { schema: { operationId, summary, tags: ['ping'], response: { 200: pingSchema } } },
    async (request) => ({
      data: { service: options.name, organization_id: organizationId(request) },
    }),
  );
  registerHealth(app, options.readiness ?? []);
  registerMetrics(app, options.name);
  registerLoadShedding(app);
  return app;
}

/**
 * What startService applies to an app's HTTP server: its timeouts, who may read `/metrics` (the config's token), and
 * `/metrics` on a listener of its own when METRICS_PORT is set (with the same timeouts and token).
 */
export async function configureServer(
  app: FastifyInstance,
  config: BaseConfig,
  timeouts: HttpTimeouts,
): Promise<{ metricsUrl?: string; close: () => Promise<void> }> {
  applyHttpTimeouts(app.server, timeouts);
  const access = { token: config.METRICS_TOKEN };
  useMetricsAccess(app, { ...access, elsewhere: config.METRICS_PORT !== undefined });
  if (config.METRICS_PORT === undefined) return { close: async () => undefined };

  const list = registriesOf(app);
  const quiet = new LogController({ disableRequestLogging: true });
  const listener = Fastify({ loggerInstance: app.log, logController: quiet, ...serverOptions(timeouts) });
  listener.setErrorHandler(errorHandler);
  listener.setNotFoundHandler(notFoundHandler);
  listener.get('/metrics', async (request, reply) => metricsResponse(list, access, request, reply));
  const metricsUrl = await listener.listen({ host: config.HOST, port: config.METRICS_PORT });
  return { metricsUrl, close: () => listener.close() };
}
