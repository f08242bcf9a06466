import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkStack, type SdkStack } from './support/sdk-stack.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * The SDK and the test kit as a new user gets them: `npm pack` of each (their built dist), installed into a fresh
 * folder outside the workspace (no workspace links, no @types/node), type-checked there, and used there with plain
 * node against the real processes.
 */
describe('the packed @scheduling-shop/sdk and @scheduling-shop/testkit', () => {
  let stack: SdkStack;
  let packs: string;
  /** The SDK alone (what a browser project installs): nothing brings @types/node here. */
  let sdkOnly: string;
  /** Both, for the script. */
  let folder: string;

  beforeAll(async () => {
    packs = await mkdtemp(join(tmpdir(), 'packed-sdk-'));
    const tarballs: Record<string, string> = {};
    for (const name of ['sdk', 'testkit']) {
      await run('npm', ['pack', '--pack-destination', packs, '--silent'], { cwd: join(ROOT, 'packages', name) });
      const file = (await readdir(packs)).find((entry) => entry.startsWith(`scheduling-shop-${name}-`) && entry.endsWith('.tgz'));
      if (!file) throw new Error(`npm pack of packages/${name} made no tarball`);
      tarballs[name] = `file:${join(packs, file)}`;
    }
    sdkOnly = await newProject('sdk-only', { '@scheduling-shop/sdk': tarballs.sdk });
    folder = await newProject('both', { '@scheduling-shop/sdk': tarballs.sdk, '@scheduling-shop/testkit': tarballs.testkit });
    stack = await startSdkStack();
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    if (packs) await rm(packs, { recursive: true, force: true });
  });

  async function newProject(name: string, dependencies: Record<string, string | undefined>): Promise<string> {
    const project = join(packs, name);
    await cp(join(import.meta.dirname, 'packed'), project, { recursive: true });
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'a-new-user', private: true, type: 'module', dependencies }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], { cwd: project, timeout: 240_000 });
    return project;
  }

  it('when installed, then each tarball holds its dist and README only, and the SDK brings no @types/node', async () => {
    for (const name of ['sdk', 'testkit']) {
      const files = await readdir(join(folder, 'node_modules', '@scheduling-shop', name));
      expect(files.sort()).toEqual(['README.md', 'dist', 'package.json']);
    }
    await expect(readdir(join(sdkOnly, 'node_modules', '@types', 'node'))).rejects.toThrow();
  });

  it('when a file using the SDK is type-checked without @types/node, then it compiles, and a wrong field does not', async () => {
    const tsconfig = {
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: [] },
      files: ['check.ts'],
    };
    await writeFile(join(sdkOnly, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: sdkOnly });

    await writeFile(
      join(sdkOnly, 'wrong.ts'),
      "import { createPublicClient } from '@scheduling-shop/sdk';\ncreatePublicClient({ baseUrl: 'x', apiKey: 'sk_x' });\n",
    );
    await writeFile(join(sdkOnly, 'tsconfig.wrong.json'), JSON.stringify({ ...tsconfig, files: ['wrong.ts'] }));
    const wrong = await run(process.execPath, [TSC, '-p', 'tsconfig.wrong.json'], { cwd: sdkOnly }).catch(
      (error: { stdout: string }) => error,
    );
    expect('stdout' in wrong ? wrong.stdout : '').toContain("'apiKey' does not exist");
  });

  it('when a script imports both with plain node, then the test kit finds the gateway and the SDK books a slot', async () => {
    const env = { ...process.env, API: stack.baseUrl, KEY: await stack.organizationKey('Packed') };
    const { stdout } = await run(process.execPath, ['book.mjs'], { cwd: folder, env });
    const { booking } = JSON.parse(stdout) as { booking: { id: string; status: string; attendee_email: string } };

    expect(booking).toMatchObject({ status: 'PENDING', attendee_email: 'ada@example.com' });
  });

  it('when the script books as a browser would (publishable key, hold, client_secret), then it reads and cancels its own booking', async () => {
    const env = { ...process.env, API: stack.baseUrl, KEY: await stack.organizationKey('Packed public'), PUBLISHABLE: '1' };
    const { stdout } = await run(process.execPath, ['book.mjs'], { cwd: folder, env });
    const { hold, booking, after } = JSON.parse(stdout) as Record<string, { id: string; status: string }>;

    expect(hold).toMatchObject({ status: 'active' });
    expect(booking).toMatchObject({ attendee_email: 'ada@example.com' });
    expect(after).toMatchObject({ id: booking?.id, status: 'CANCELLED' });
  });
});
