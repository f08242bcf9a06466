// `npm run openapi:check` (also a step of `npm test`): the committed openapi/openapi.json against the last release in
// openapi/releases/; breaking changes pass only with a new major info.version and a CHANGELOG.md section saying why.
// `npm run openapi:release`: the snapshot becomes openapi/releases/<info.version>.json, the baseline from then on.
// `node scripts/openapi-gate.mjs check|release [--root DIR]` (DIR: another checkout or a test fixture).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { join, resolve } = await import('node:path');
const { checkRepository, releaseSnapshot } = await import('../packages/openapi-gate/src/index.ts');

const [command, ...options] = process.argv.slice(2);
const rootAt = options.indexOf('--root');
const root = rootAt >= 0 && options[rootAt + 1] ? resolve(options[rootAt + 1]) : join(import.meta.dirname, '..');

if (command === 'check') {
  const { ok, text } = await checkRepository(root);
  (ok ? console.log : console.error)(text);
  process.exit(ok ? 0 : 1);
} else if (command === 'release') {
  try {
    console.log(await releaseSnapshot(root));
  } catch (error) {
    console.error(`openapi:release: ${error.message}`);
    process.exit(1);
  }
} else {
  console.error('usage: node scripts/openapi-gate.mjs check|release [--root DIR]');
  process.exit(2);
}
