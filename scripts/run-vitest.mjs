// Runs vitest with the arguments given and closes with one plain line, `vitest: N passed, N failed[, N skipped]`,
// whatever the console reporter printed (CI reads that line). Exits with vitest's status.
// `node scripts/run-vitest.mjs [--cwd DIR] [vitest arguments]`; test.mjs and test-containers.sh run it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `vitest run` in `cwd` with `args`; prints the closing line and returns vitest's exit status. */
export function runVitest(args, { cwd, env = process.env } = {}) {
  const report = join(mkdtempSync(join(tmpdir(), 'vitest-')), 'results.json');
  const vitest = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    cwd,
    stdio: 'inherit',
    env,
  });
  try {
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
    console.log(`\nvitest: ${numPassedTests} passed, ${numFailedTests} failed${numPendingTests ? `, ${numPendingTests} skipped` : ''}`);
  } catch {
    console.log('\nvitest: no result report was written');
  }
  return vitest.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const cwdAt = args.indexOf('--cwd');
  const cwd = cwdAt >= 0 ? args.splice(cwdAt, 2)[1] : process.cwd();
  process.exit(runVitest(args, { cwd }));
}
