import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataEnvelope, errorBodySchema } from '@app/contracts';
import { preparedForTests, startedForTests } from '@app/service-testing';
import { readFileSync } from 'node:fs';
import { startE2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';
import { startStack } from '@app/dev-stack';
import { processGroup } from '../../bench/process-cpu.mjs';

const SERVICES = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'];

describe('the stack as npm start runs it', () => {
  // SERVICE_NODE_FLAGS unset, as a fresh `npm start` has it (empty counts as unset), whatever the shell running the tests has set.
  const stack = startedForTests(() => startE2eStack({ SERVICE_NODE_FLAGS: '' }), { timeout: 120_000 });
  const organization = preparedForTests(() => createOrganization(stack, 'E2E Org', 'Europe/Berlin'));

  it.each(SERVICES)('when the key calls %s through the gateway, then that service answers for the organization', async (service) => {
    const response = await stack.call('GET', `/api/v1/ping/${service}`, { key: organization.key });
    expect(response.status).toBe(200);
    const ping = dataEnvelope(z.object({ service: z.string(), organization_id: z.uuid() })).parse(response.body);
    expect(ping.data.service).toBe(service);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('when no key is sent, then 401 with the error shape', async () => {
    const response = await stack.call('GET', '/api/v1/ping/bookings');
    expect(response.status).toBe(401);
    expect(errorBodySchema.parse(response.body).code).toBe('UNAUTHORIZED');
  });

  it('when the API reference is fetched, then it merges every service', async () => {
    const response = await stack.call('GET', '/openapi.json');
    const paths = Object.keys(z.object({ paths: z.record(z.string(), z.unknown()) }).parse(response.body).paths);
    for (const service of SERVICES) expect(paths).toContain(`/api/v1/ping/${service}`);
    expect(paths).toContain('/admin/v1/organizations');
  });

  it('when the API reference is fetched, then every proxied operation is named and declares what the gateway itself may answer', async () => {
    const operation = z.object({
      operationId: z.string(),
      summary: z.string(),
      requestBody: z.unknown().optional(),
      responses: z.record(z.string(), z.unknown()),
    });
    const document = z
      .object({
        paths: z.record(z.string(), z.record(z.string(), z.unknown())),
        components: z.object({ schemas: z.record(z.string(), z.unknown()) }),
      })
      .parse((await stack.call('GET', '/openapi.json')).body);
    expect(document.components.schemas).toHaveProperty('ErrorDetail');
    const proxied = Object.entries(document.paths).filter(([path]) => !path.startsWith('/admin/'));
    expect(proxied.length).toBeGreaterThan(20);
    for (const [path, item] of proxied) {
      for (const [method, value] of Object.entries(item).filter(([key]) => ['get', 'post', 'patch', 'delete'].includes(key))) {
        const { requestBody, responses } = operation.parse(value);
        const expected = ['401', '429', '503', ...(requestBody ? ['413'] : [])];
        expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(expected));
      }
    }
  });

  it('when the stack runs, then every process started with one garbage-collection thread and no pretenuring, the flags on its command line', () => {
    expect(stack.children.map((entry) => entry.name).sort()).toEqual([...SERVICES, 'gateway'].sort());
    for (const { name, child } of stack.children) {
      // What the kernel holds for the running process, not what was asked: node refuses a flag it does not know.
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(argv.slice(1, -1), name).toEqual(['--single-threaded-gc', '--no-allocation-site-pretenuring']);
      expect(argv.at(-1), name).toMatch(new RegExp(`services/${name}/dist/server\\.js$`));
    }
  });

  it('when the stack runs, then the bench counts each process’s CPU under its service, the flags before its script', () => {
    // The bench's CPU table and its wait for a settled stack read the same grouping: a process it misses drops out of both.
    for (const { name, child } of stack.children) expect(processGroup(child.pid), name).toBe(name);
  });
});

describe('SERVICE_NODE_FLAGS', () => {
  it('when it names a flag node does not know, then the stack refuses to start and says which process exited', async () => {
    const env = { ...process.env, SERVICE_NODE_FLAGS: '--max-old-space-size=256 --no-such-v8-flag' };
    await expect(startStack({ port: 0, env, output: 'none', readyTimeoutMs: 20_000 })).rejects.toThrow(
      /exited with code 9 before it was ready/,
    );
  });
});
