import Fastify, { type FastifyInstance } from 'fastify';
import { jwtVerify, type JWTHeaderParameters, type JWTPayload } from 'jose';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import { testAssertionSecret } from '@app/service-testing';
import type { ServiceName } from '../../src/proxy/route-table.js';

const SERVICES: ServiceName[] = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'];

export interface Echo {
  service: ServiceName;
  /** The port of the server that really answered (the Host header only says where the gateway meant to go). */
  port: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * Stand-ins for the six services behind the gateway: each answers every request with what it received,
 * so a test can see where the gateway sent a request and with which headers.
 */
export interface EchoUpstreams {
  env: Record<string, string>;
  close: () => Promise<void>;
}

export async function startEchoUpstreams(options: { ready?: () => boolean } = {}): Promise<EchoUpstreams> {
  const servers: FastifyInstance[] = [];
  const env: Record<string, string> = {};
  for (const service of SERVICES) {
    const server = Fastify();
    server.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    server.get('/readyz', async (_request, reply) => reply.code(options.ready?.() === false ? 503 : 200).send({}));
    server.all(
      '/*',
      async (request) =>
        ({
          service,
          port: request.socket.localPort ?? 0,
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: request.body,
        }) satisfies Echo,
    );
    await server.listen({ host: '127.0.0.1', port: 0 });
    servers.push(server);
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    env[`${service.toUpperCase().replace('-', '_')}_URL`] = `http://127.0.0.1:${port}`;
  }
  return { env, close: async () => void (await Promise.all(servers.map((s) => s.close()))) };
}

/** A stand-in for one service that answers as `routes` says, where an echo will not do: on a port of its own. */
export async function startStandIn(routes: (app: FastifyInstance) => void): Promise<{ url: string; stop(): Promise<void> }> {
  const app = Fastify();
  routes(app);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, stop: () => app.close() };
}

/**
 * The caller assertion an echo received, verified as that service would verify it (with jose, not the kit): HS256
 * under the run's secret of the service that answered, the gateway as issuer, that service as audience.
 */
export async function assertionOf(echo: Echo): Promise<{ payload: JWTPayload; protectedHeader: JWTHeaderParameters; token: string }> {
  const token = echo.headers[CALLER_ASSERTION_HEADER];
  if (typeof token !== 'string') throw new Error('no caller assertion was forwarded');
  const secret = Buffer.from(testAssertionSecret(echo.service), 'base64url');
  const { payload, protectedHeader } = await jwtVerify(token, secret, { issuer: 'gateway', audience: echo.service, algorithms: ['HS256'] });
  return { payload, protectedHeader, token };
}
