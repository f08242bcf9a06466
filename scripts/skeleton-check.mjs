// `npm run check:skeleton` (a step of `npm test`): every file of a service's src/ stands where STYLE.md's skeleton
// puts it, with a suffix of its set, and no folder outside the skeleton's holds a single file. Exits 1 naming each
// file that does not fit, so a new file outside the skeleton fails the suite.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The files a service's src/ holds at its top. */
const TOP_FILES = new Set(['server.ts', 'service.ts', 'app.ts', 'config.ts', 'migrate.ts']);

/** The skeleton's folders, and the role suffixes each may hold (helpers without a suffix may stand beside them). */
const FOLDERS = {
  routes: ['route'],
  handlers: ['handler', 'consumer'],
  workers: ['worker'],
  clients: ['client'],
  'use-cases': ['use-case'],
  domain: ['record'],
  db: ['repository'],
  cli: [],
};

/**
 * Folders of one service only, for what no other service has (the edge's authentication, proxy and OpenAPI
 * aggregation; the catalog's streaming image checks). Each must hold more than one file.
 */
const OWN_FOLDERS = {
  gateway: ['auth', 'proxy', 'openapi', 'http'],
  catalog: ['upload'],
};

/** Generated code (Prisma clients) is not the skeleton's. */
const SKIPPED = new Set(['generated']);

function filesBelow(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? (SKIPPED.has(name) ? [] : filesBelow(path)) : [path];
  });
}

/** The role suffix of a file name (`booking-create.use-case.ts` → `use-case`), or null for a plain helper. */
function suffixOf(name) {
  const match = /^[a-z0-9-]+\.([a-z-]+)\.ts$/.exec(name);
  return match ? match[1] : /^[a-z0-9-]+\.ts$/.test(name) ? null : undefined;
}

const problems = [];
for (const service of readdirSync(join(ROOT, 'services'))) {
  const src = join(ROOT, 'services', service, 'src');
  const own = OWN_FOLDERS[service] ?? [];
  const folderSizes = new Map();
  for (const path of filesBelow(src)) {
    const [top, ...rest] = relative(src, path).split('/');
    const name = rest.at(-1) ?? top;
    const where = relative(ROOT, path);
    if (rest.length === 0) {
      if (!TOP_FILES.has(top)) problems.push(`${where}: src/ holds only ${[...TOP_FILES].join(', ')} at its top`);
      continue;
    }
    const folder = relative(src, join(path, '..'));
    folderSizes.set(folder, (folderSizes.get(folder) ?? 0) + 1);
    const suffix = suffixOf(name);
    if (suffix === undefined) problems.push(`${where}: file names are kebab-case .ts`);
    else if (top in FOLDERS) {
      if (suffix !== null && !FOLDERS[top].includes(suffix))
        problems.push(`${where}: ${top}/ holds ${FOLDERS[top].map((s) => `*.${s}.ts`).join(', ') || 'plain names'} and helpers`);
    } else if (own.includes(top)) {
      if (suffix !== null) problems.push(`${where}: a role suffix belongs in its skeleton folder (${Object.keys(FOLDERS).join(', ')})`);
    } else problems.push(`${where}: ${top}/ is not a folder of the skeleton (STYLE.md)`);
  }
  for (const [folder, size] of folderSizes)
    if (size === 1 && !(folder in FOLDERS)) problems.push(`services/${service}/src/${folder}/: a folder of one file (STYLE.md: none)`);
}

if (problems.length > 0) {
  console.error(`Files outside the service skeleton (STYLE.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('Every service file stands where the skeleton puts it.');
