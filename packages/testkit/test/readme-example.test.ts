import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

it("when docs/api.md shows the test kit example, then it is this package's example test, word for word", () => {
  const example = readFileSync(join(import.meta.dirname, 'example.test.ts'), 'utf8').trim();
  const readme = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\n\`\`\``);
});
