import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError, Svcm } from '@nats-io/services';
import { APP_ERROR_CODE_HEADER, defineRequest } from '@app/contracts';
import { AppError, type Bus } from '../src/index.js';
import { kitBus } from './support/kit-env.js';

const greet = defineRequest('kit.greeting.get', z.object({ name: z.string() }), z.object({ greeting: z.string() }));
const slow = defineRequest('kit.slow.get', z.object({}), z.object({}));
const echoRequestId = defineRequest('kit.request_id.get', z.object({}), z.object({ request_id: z.string().nullable() }));
const unserved = defineRequest('kit.nobody.get', z.object({}), z.object({}));

describe('Bus request-reply', () => {
  let server: Bus;
  let client: Bus;

  beforeAll(async () => {
    const prefix = `kit_bus_${Date.now()}`;
    server = await kitBus({ prefix });
    client = await kitBus({ prefix, timeoutMs: 300 });
    await server.serve(greet, async ({ name }) => {
      if (name === 'nobody') throw new AppError('NOT_FOUND', 'Person not found');
      if (name === 'gone') throw new AppError('NOT_FOUND', 'Person left', 410);
      if (name === 'crash') throw new Error('database password is hunter2');
      return { greeting: `hello ${name}` };
    });
    await server.serve(slow, () => new Promise((resolve) => setTimeout(() => resolve({}), 1000)));
    await server.serve(echoRequestId, async (_request, requestId) => ({ request_id: requestId ?? null }));
    await server.nc.flush();
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('when the endpoint answers, then the reply is validated and returned', async () => {
    await expect(client.request(greet, { name: 'ada' })).resolves.toEqual({ greeting: 'hello ada' });
  });

  it('when the handler throws an AppError, then the caller gets the same AppError', async () => {
    const error = await client.request(greet, { name: 'nobody' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, message: 'Person not found' });
  });

  it('when the AppError has a status of its own, then the caller gets that status back', async () => {
    await expect(client.request(greet, { name: 'gone' })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 410, message: 'Person left' });
  });

  it('when the handler throws an AppError, then the reply is a micro service error (status and message headers)', async () => {
    const reply = await client.nc.request(client.subject(greet.subject), JSON.stringify({ name: 'nobody' }), { timeout: 300 });
    expect(ServiceError.toServiceError(reply)).toMatchObject({ code: 404, message: 'Person not found' });
    expect(reply.headers?.get(APP_ERROR_CODE_HEADER)).toBe('NOT_FOUND');
  });

  it('when the handler fails unexpectedly, then the caller gets INTERNAL without internals', async () => {
    const error = await client.request(greet, { name: 'crash' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INTERNAL', status: 500, message: 'Internal server error' });
  });

  it('when a request does not match its contract, then the endpoint answers VALIDATION_ERROR', async () => {
    const reply = await client.nc.request(client.subject(greet.subject), JSON.stringify({ name: 42 }), { timeout: 300 });
    expect(ServiceError.toServiceError(reply)).toMatchObject({ code: 400 });
    expect(reply.headers?.get(APP_ERROR_CODE_HEADER)).toBe('VALIDATION_ERROR');
  });

  it('when a request is not JSON, then the endpoint answers VALIDATION_ERROR', async () => {
    const reply = await client.nc.request(client.subject(greet.subject), 'not json', { timeout: 300 });
    expect(reply.headers?.get(APP_ERROR_CODE_HEADER)).toBe('VALIDATION_ERROR');
  });

  it('when a request does not match its contract, then the caller refuses to send it', async () => {
    await expect(client.request(greet, { name: 42 } as unknown as { name: string })).rejects.toThrow();
  });

  it('when the caller passes a request id, then the handler gets it', async () => {
    await expect(client.request(echoRequestId, {}, 'req-42')).resolves.toEqual({ request_id: 'req-42' });
    await expect(client.request(echoRequestId, {})).resolves.toEqual({ request_id: null });
  });

  it('when the endpoint is slower than the timeout, then 503 UPSTREAM_UNAVAILABLE', async () => {
    await expect(client.request(slow, {})).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      status: 503,
      message: 'A service this request needs did not answer in time',
    });
  });

  it('when no endpoint serves the subject, then 503 at once, not after the timeout', async () => {
    const patient = await kitBus({ timeoutMs: 5000 });
    const started = performance.now();
    const error = await patient.request(unserved, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 503 });
    expect(performance.now() - started).toBeLessThan(1000);
    await patient.close();
  });

  it('when a bus serves, then it is a micro service named after the service, its endpoints in its queue group', async () => {
    const infos = await new Svcm(client.nc).client().info('kit-test');
    const endpoints = [];
    for await (const info of infos) endpoints.push(...info.endpoints);
    expect(endpoints).toContainEqual(expect.objectContaining({ subject: client.subject(greet.subject), queue_group: 'kit-test' }));
  });
});
