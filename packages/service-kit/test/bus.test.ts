import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRequest } from '@app/contracts';
import { AppError, type Bus } from '../src/index.js';
import { kitBus } from './support/kit-env.js';

const greet = defineRequest('kit.greeting.get', z.object({ name: z.string() }), z.object({ greeting: z.string() }));

describe('Bus request-reply', () => {
  let server: Bus;
  let client: Bus;

  beforeAll(async () => {
    const prefix = `kit_bus_${Date.now()}`;
    server = await kitBus({ prefix });
    client = await kitBus({ prefix, timeoutMs: 300 });
    server.serve(greet, async ({ name }) => {
      if (name === 'nobody') throw new AppError('NOT_FOUND', 'Person not found');
      if (name === 'crash') throw new Error('database password is hunter2');
      return { greeting: `hello ${name}` };
    });
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

  it('when the handler fails unexpectedly, then the caller gets INTERNAL without internals', async () => {
    const error = await client.request(greet, { name: 'crash' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INTERNAL', status: 500, message: 'Internal server error' });
  });

  it('when nobody answers in time, then 503 UPSTREAM_UNAVAILABLE (never a hang)', async () => {
    const lonely = await kitBus({ timeoutMs: 200 });
    const error = await lonely.request(greet, { name: 'ada' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 503 });
    await lonely.close();
  });

  it('when the endpoint is slower than the timeout, then 503', async () => {
    const slow = defineRequest('kit.slow.get', z.object({}), z.object({}));
    server.serve(slow, () => new Promise((resolve) => setTimeout(() => resolve({}), 1000)));
    await server.nc.flush();
    await expect(client.request(slow, {})).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('when a request does not match its contract, then the caller refuses to send it', async () => {
    await expect(client.request(greet, { name: 42 } as unknown as { name: string })).rejects.toThrow();
  });
});
