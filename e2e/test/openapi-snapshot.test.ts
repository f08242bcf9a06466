import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { jsonDifferences } from '../support/json-differences.js';

const SNAPSHOT = new URL('../../openapi/openapi.json', import.meta.url);

describe('GET /openapi.json', () => {
  const stack = startedForTests(startE2eStack, { timeout: 120_000 });

  it('when the gateway serves the merged document, then it is the committed openapi/openapi.json', async () => {
    const committed: unknown = JSON.parse(await readFile(SNAPSHOT, 'utf8'));

    const served = await stack.call('GET', '/openapi.json');

    expect(served.status).toBe(200);
    const differences = jsonDifferences(committed, served.body);
    const message = [
      `openapi/openapi.json is not what the API serves (${differences.length} difference${differences.length === 1 ? '' : 's'}, snapshot → served):`,
      ...differences.map((line) => `  ${line}`),
      'Run npm run openapi:snapshot and commit openapi/openapi.json (npm test then checks it against the last release).',
    ].join('\n');
    expect(differences, message).toEqual([]);
  });
});
