import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@app/contracts';
import { AppError, buildService, IdempotencyStore, type ServiceApp } from '../../src/index.js';
import { useIdempotencyStore } from '../../src/http/idempotency/idempotency-hooks.js';
import { organizationHeaders } from '@app/service-testing';
import { keyedReply, type KeyedReply } from '@app/service-testing';
import { kitSchema, silentLog, useRunCallerKeys } from './kit-env.js';

/** What a run of the test route does before it answers 201, by the body's `title` (one step per run, in order). */
export type Step = 'ok' | 'slow' | 'slow-unavailable' | 'not-found' | 'unavailable' | 'crash' | 'unauthorized';

/**
 * A service app with two creating routes (`POST /things`, `POST /others`, 201) on a schema of its own with the
 * kit's tables, counting the runs of each title: the Idempotency-Key machinery seen from outside.
 */
export async function keyedApp() {
  const schema = await kitSchema();
  const store = new IdempotencyStore(schema.pool);
  const app: ServiceApp = await buildService({ name: 'kit-idempotency', log: silentLog });
  useIdempotencyStore(app, store);
  useRunCallerKeys(app);
  const runs = new Map<string, number>();
  const plans = new Map<string, Step[]>();
  const response = {
    201: dataEnvelope(z.object({ id: z.string(), title: z.string() })),
    ...errorResponses('NOT_FOUND', 'UNAUTHORIZED', 'CONFLICT', 'UPSTREAM_UNAVAILABLE'),
  };
  for (const url of ['/things', '/others']) {
    app.post(url, { schema: { body: z.object({ title: z.string() }), response } }, async (request, reply) => {
      const { title } = request.body;
      runs.set(title, (runs.get(title) ?? 0) + 1);
      await perform(plans.get(title)?.shift() ?? 'ok');
      return reply.code(201).send({ data: { id: randomUUID(), title } });
    });
  }
  await app.ready();
  return {
    app,
    store,
    schema,
    /** The steps of the next runs for `title`. */
    plan: (title: string, ...steps: Step[]) => void plans.set(title, steps),
    runsOf: (title: string) => runs.get(title) ?? 0,
    async post(
      title: string,
      key: string | undefined,
      options: { url?: string; headers?: Record<string, string> } = {},
    ): Promise<KeyedReply> {
      const headers = {
        ...(options.headers ?? organizationHeaders(ORGANIZATION)),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      };
      return keyedReply(await app.inject({ method: 'POST', url: options.url ?? '/things', headers, payload: { title } }));
    },
    async close() {
      await app.close();
      await schema.close();
    },
  };
}

/** The organization of keyedApp's requests unless a test sends its own headers. */
export const ORGANIZATION = '6f1d3a3e-5d7c-4c36-9a55-3c0f3b9d1e01';

async function perform(step: Step): Promise<void> {
  if (step === 'slow' || step === 'slow-unavailable') await sleep(300);
  if (step === 'slow-unavailable' || step === 'unavailable')
    throw new AppError('UPSTREAM_UNAVAILABLE', 'A service this request needs did not answer in time');
  if (step === 'not-found') throw new AppError('NOT_FOUND', 'Thing not found');
  if (step === 'unauthorized') throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
  if (step === 'crash') throw new Error('database went away');
}
