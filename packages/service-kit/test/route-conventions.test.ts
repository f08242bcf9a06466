import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponses } from '@app/contracts';
import { AppError, buildService, type ServiceApp } from '../src/index.js';
import { silentLog } from './support/kit-env.js';

type Operation = {
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content: { 'application/json': { schema: { properties: { code: { enum: string[] } } } } } }>;
};

/** A service with one creating route, one update route and one route that answers a code it does not document. */
async function app(): Promise<ServiceApp> {
  // Conventions only: the caller assertion is caller-assertion.test.ts's subject.
  const service = await buildService({ name: 'conventions-test', log: silentLog, verifyCallerAssertion: false });
  const body = z.object({ title: z.string() });
  service.post(
    '/api/v1/things',
    { schema: { operationId: 'createThing', body, response: { 201: z.object({ id: z.string() }), ...errorResponses('SLUG_TAKEN') } } },
    async (_request, reply) => reply.code(201).send({ id: 'a' }),
  );
  service.patch(
    '/api/v1/things/:id',
    { schema: { operationId: 'updateThing', body, response: { 200: z.object({ id: z.string() }), ...errorResponses('NOT_FOUND') } } },
    async () => ({ id: 'a' }),
  );
  service.get('/api/v1/documented', { schema: { response: { 200: z.object({}), ...errorResponses('NOT_FOUND') } } }, async () => {
    throw new AppError('NOT_FOUND', 'Thing not found');
  });
  service.get('/api/v1/mistaken', { schema: { response: { 200: z.object({}), ...errorResponses('NOT_FOUND') } } }, async () => {
    throw new AppError('MEDIA_NOT_FOUND', 'Media file not found');
  });
  await service.ready();
  return service;
}

function codes(operation: Operation, status: string): string[] {
  return operation.responses[status]!.content['application/json'].schema.properties.code.enum;
}

describe('route conventions', () => {
  let service: ServiceApp | undefined;
  const originalEnv = process.env.NODE_ENV;
  afterEach(async () => {
    process.env.NODE_ENV = originalEnv;
    await service?.close();
  });

  it('when a route creates something, then its document has the Idempotency-Key header and the codes every body route can answer', async () => {
    service = await app();
    const paths = (service.swagger() as unknown as { paths: Record<string, Record<string, Operation>> }).paths;
    const create = paths['/api/v1/things']!.post!;
    expect(create.parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(['header:idempotency-key']);
    expect(codes(create, '409')).toEqual(['CONFLICT', 'IDEMPOTENCY_KEY_REUSED', 'SLUG_TAKEN']);
    expect(codes(create, '400')).toEqual(['VALIDATION_ERROR']);
    expect(codes(create, '413')).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(codes(create, '415')).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    const update = paths['/api/v1/things/{id}']!.patch!;
    expect(update.parameters?.some((parameter) => parameter.in === 'header')).toBe(false);
    expect(update.responses['409']).toBeUndefined();
    expect(codes(update, '404')).toEqual(['NOT_FOUND']);
  });

  it('when a malformed Idempotency-Key is sent to a creating route, then 400 names the header', async () => {
    service = await app();
    const response = await service.inject({
      method: 'POST',
      url: '/api/v1/things',
      headers: { 'idempotency-key': 'has space' },
      payload: { title: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'idempotency-key' }] });
  });

  it('when a route answers a code it documents, then the client gets it', async () => {
    service = await app();
    const response = await service.inject({ url: '/api/v1/documented' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Thing not found', code: 'NOT_FOUND' });
  });

  it('when a route answers a code it does not document, then tests see a 500, and production still sends the error', async () => {
    process.env.NODE_ENV = 'test';
    service = await app();
    expect((await service.inject({ url: '/api/v1/mistaken' })).statusCode).toBe(500);
    await service.close();

    process.env.NODE_ENV = 'production';
    service = await app();
    const response = await service.inject({ url: '/api/v1/mistaken' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Media file not found', code: 'MEDIA_NOT_FOUND' });
  });
});
