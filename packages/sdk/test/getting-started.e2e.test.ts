import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkStack, type SdkStack } from './support/sdk-stack.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const EXAMPLE = join(import.meta.dirname, '..', 'book-a-slot.example.mjs');
const run = promisify(execFile);

/** The shell block that follows `<!-- marker -->` in the README. */
function readmeBlock(marker: string): string {
  const block = new RegExp(`<!-- ${marker} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(README)?.[1];
  if (!block) throw new Error(`README.md has no sh block after <!-- ${marker} -->`);
  return block;
}

/** README's "Getting started", run as written against the real stack: curl first, then the SDK example. */
describe('Getting started', () => {
  let stack: SdkStack;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    stack = await startSdkStack();
    env = { ...process.env, API: stack.baseUrl, KEY: await stack.organizationKey('Getting started') };
  }, 120_000);
  afterAll(async () => stack?.stop());

  it('when the curl commands are run, then they make a schedule, list its slots and book one', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeBlock('getting-started:curl')], { env, cwd: ROOT });
    expect(stdout).toContain('"label":"09:00"');
    expect(stdout).toContain('"status":"PENDING"');
    expect(stdout).toContain('"start_time":"2030-01-07T08:00:00.000Z"');
  });

  it('when the SDK example is run, then it books the first slot; the README shows it word for word', async () => {
    expect(README).toContain(`\`\`\`js\n${readFileSync(EXAMPLE, 'utf8').trim()}\n\`\`\``);
    expect(readmeBlock('getting-started:sdk')).toBe('node packages/sdk/book-a-slot.example.mjs');
    const { stdout } = await run('node', [EXAMPLE], { env, cwd: ROOT });
    expect(stdout).toMatch(/^booked 2030-01-08T08:00:00.000Z \(PENDING\), id [0-9a-f-]{36}\n$/);
  });
});
