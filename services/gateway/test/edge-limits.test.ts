import { randomBytes } from 'node:crypto';
import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startEchoUpstreams } from './support/echo-upstreams.js';
import { createOrganization, gatewayBehindEchoes, gatewayForThisTest, startGateway, type Gateway } from './support/harness.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SLOTS = '/api/bookings/slots';
const from = (forwardedFor: string) => ({ headers: { 'x-forwarded-for': forwardedFor } });
const statuses = async (gateway: Gateway, count: number, options: { headers?: Record<string, string> } = {}) => {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) codes.push((await gateway.app.inject({ url: SLOTS, ...options })).statusCode);
  return codes;
};

describe('TRUST_PROXY', () => {
  describe('unset', () => {
    const fixture = gatewayBehindEchoes({ RATE_LIMIT_MAX: '2' });

    it('when a client varies X-Forwarded-For, then it is still one IP (the peer) and hits the limit', async () => {
      expect(await statuses(fixture.gateway, 2, from('203.0.113.1'))).toEqual([200, 200]);
      expect(await statuses(fixture.gateway, 1, from('203.0.113.2'))).toEqual([429]);
    });
  });

  describe('set to the load balancer’s address', () => {
    const fixture = gatewayBehindEchoes({ RATE_LIMIT_MAX: '2', AUTH_FAILURES_MAX: '1', TRUST_PROXY: '127.0.0.1/32' });

    it('when two clients come through it, then each has its own rate limit', async () => {
      expect(await statuses(fixture.gateway, 3, from('203.0.113.10'))).toEqual([200, 200, 429]);
      expect(await statuses(fixture.gateway, 1, from('203.0.113.11'))).toEqual([200]);
    });

    it('when one client fails authentication, then only that client is blocked', async () => {
      const bogus = { authorization: 'Bearer sk_bogusbogusbogusbogusbogus1234' };
      const attempt = (ip: string) => fixture.gateway.app.inject({ url: '/api/v1/events', headers: { ...bogus, 'x-forwarded-for': ip } });
      expect((await attempt('203.0.113.20')).statusCode).toBe(401);
      expect((await attempt('203.0.113.20')).statusCode).toBe(429);
      expect((await attempt('203.0.113.21')).statusCode).toBe(401);
    });
  });

  describe('set to a hop count', () => {
    const fixture = gatewayBehindEchoes({ RATE_LIMIT_MAX: '1', TRUST_PROXY: '1' });

    it('when the client claims an address in front of the last hop, then the address the proxy saw counts', async () => {
      expect(await statuses(fixture.gateway, 1, from('198.51.100.1, 203.0.113.30'))).toEqual([200]);
      expect(await statuses(fixture.gateway, 1, from('198.51.100.2, 203.0.113.30'))).toEqual([429]);
    });
  });
});

describe('RATE_LIMIT_REDIS_URL', () => {
  it('when two gateways share one Redis, then their combined requests hit 429 at the single limit', async () => {
    const upstreams = await startEchoUpstreams();
    const env = {
      ...upstreams.env,
      RATE_LIMIT_MAX: '4',
      RATE_LIMIT_REDIS_URL: REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
    };
    const first = await startGateway(env);
    const second = await startGateway(env);
    try {
      const org = await createOrganization(first);
      const auth = { authorization: `Bearer ${org.api_key}` };
      const codes: number[] = [];
      for (let i = 0; i < 6; i++)
        codes.push((await (i % 2 === 0 ? first : second).app.inject({ url: '/api/v1/events', headers: auth })).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      await upstreams.close();
    }
  });

  it('when Redis is unreachable at boot, then the gateway refuses to start naming the variable', async () => {
    const upstreams = await startEchoUpstreams();
    try {
      await expect(startGateway({ ...upstreams.env, RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
        /Redis is not reachable at RATE_LIMIT_REDIS_URL \(redis:\/\/127\.0\.0\.1:1\)/,
      );
    } finally {
      await upstreams.close();
    }
  });

  it('when Redis goes away at runtime, then requests are let through (fail-open), not refused', async () => {
    const redis = new URL(REDIS_URL);
    const sockets = new Set<Socket>();
    // A TCP relay to the real Redis that the test can cut, as a Redis outage would.
    const relay = createServer((client) => {
      const upstream = connect(Number(redis.port || 6379), redis.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const address = relay.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const gateway = await gatewayForThisTest((env) =>
      startGateway({
        ...env,
        RATE_LIMIT_MAX: '100',
        RATE_LIMIT_REDIS_URL: `redis://127.0.0.1:${port}`,
        RATE_LIMIT_REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
      }),
    );
    expect((await gateway.app.inject({ url: SLOTS })).statusCode).toBe(200);
    relay.close();
    for (const socket of sockets) socket.destroy();
    const started = Date.now();
    expect((await gateway.app.inject({ url: SLOTS })).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
