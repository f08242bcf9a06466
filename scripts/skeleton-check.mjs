// `npm run check:skeleton` (a step of `npm test`): every file of a service's src/ stands where STYLE.md's skeleton
// puts it, with a suffix of its set, and no folder of a workspace holds a single file. Exits 1 naming each file and
// folder that does not fit, so a new file outside the skeleton fails the suite.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The files a service's src/ holds at its top (besides a role's only file: see `placementProblem`). */
const TOP_FILES = new Set(['server.ts', 'service.ts', 'app.ts', 'config.ts', 'migrate.ts']);

/** The skeleton's folders, and the role suffixes each holds (helpers without a suffix may stand beside them). */
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
const HOME_OF_SUFFIX = Object.fromEntries(Object.entries(FOLDERS).flatMap(([folder, suffixes]) => suffixes.map((s) => [s, folder])));

/**
 * Folders of one service only, for what no other service has (the edge's authentication, proxy, OpenAPI
 * aggregation and HTTP hooks, and its organizations and API keys; the catalog's streaming image checks).
 */
const OWN_FOLDERS = {
  gateway: ['auth', 'proxy', 'openapi', 'http', 'identity'],
  catalog: ['upload'],
};

/**
 * Folders a tool reads as they are (relative to their workspace), so they may hold one file. Not scanned at all:
 * deploy/ and ops/ (kustomize reads an overlay's folder, the image builds a Containerfile's folder, Grafana its
 * dashboards' folder) and the repository's own top.
 */
const TOOL_FOLDERS = {
  prisma: "Prisma's schema: prisma-generate runs `prisma generate --schema prisma/schema.prisma`",
  migrations: "the SQL the kit applies in order from a workspace's migrations/, one file or many",
  bin: "the kit's executables (package.json `bin`); the Dockerfile copies every */bin/* with the manifests so npm ci links them",
};

/** Never the skeleton's: installed, built or generated (and tools' dot-folders, such as .turbo). */
const SKIPPED = new Set(['node_modules', 'dist', 'generated', 'coverage']);

function entriesOf(dir) {
  return readdirSync(dir)
    .map((name) => ({ name, path: join(dir, name), isFolder: statSync(join(dir, name)).isDirectory() }))
    .filter((entry) => !(entry.isFolder && (SKIPPED.has(entry.name) || entry.name.startsWith('.'))));
}

function filesBelow(dir) {
  return entriesOf(dir).flatMap((entry) => (entry.isFolder ? filesBelow(entry.path) : [entry.path]));
}

function foldersBelow(dir) {
  return entriesOf(dir)
    .filter((entry) => entry.isFolder)
    .flatMap((entry) => [entry.path, ...foldersBelow(entry.path)]);
}

/** The role suffix of a file name (`booking-create.use-case.ts` → `use-case`), or null for a plain helper. */
function suffixOf(name) {
  const match = /^[a-z0-9-]+\.([a-z-]+)\.ts$/.exec(name);
  return match ? match[1] : /^[a-z0-9-]+\.ts$/.test(name) ? null : undefined;
}

/**
 * A role file stands in its skeleton folder, except the only file of a role: a folder of one file is none of the
 * skeleton's, so that file stands at src/ top or in the service's own folder it belongs to, its suffix saying its role.
 */
function placementProblem(suffix, folders, roleCounts) {
  const home = HOME_OF_SUFFIX[suffix];
  const roles = FOLDERS[home].map((s) => `*.${s}.ts`).join(', ');
  if (folders.has(home)) return `${home}/ exists, so its ${roles} stand there`;
  const count = roleCounts.get(home);
  if (count > 1) return `the service has ${count} files of ${home}/ (${roles}): they stand in ${home}/`;
  return null;
}

function serviceProblems(service) {
  const src = join(ROOT, 'services', service, 'src');
  const own = OWN_FOLDERS[service] ?? [];
  const files = filesBelow(src).map((path) => {
    const parts = relative(src, path).split('/');
    return { where: relative(ROOT, path), parts, name: parts.at(-1), suffix: suffixOf(parts.at(-1)) };
  });
  const folders = new Set(files.filter((file) => file.parts.length > 1).map((file) => file.parts[0]));
  const roleCounts = new Map();
  for (const { suffix } of files) {
    if (suffix && Object.hasOwn(HOME_OF_SUFFIX, suffix)) {
      const home = HOME_OF_SUFFIX[suffix];
      roleCounts.set(home, (roleCounts.get(home) ?? 0) + 1);
    }
  }

  const problems = [];
  for (const { where, parts, name, suffix } of files) {
    const top = parts.length > 1 ? parts[0] : null;
    if (suffix === undefined) problems.push(`${where}: file names are kebab-case .ts`);
    else if (top === null) {
      if (TOP_FILES.has(name)) continue;
      if (suffix === null || !Object.hasOwn(HOME_OF_SUFFIX, suffix))
        problems.push(`${where}: src/ holds only ${[...TOP_FILES].join(', ')} and a role's only file at its top`);
      else {
        const problem = placementProblem(suffix, folders, roleCounts);
        if (problem) problems.push(`${where}: ${problem}`);
      }
    } else if (Object.hasOwn(FOLDERS, top)) {
      if (suffix !== null && !FOLDERS[top].includes(suffix))
        problems.push(`${where}: ${top}/ holds ${FOLDERS[top].map((s) => `*.${s}.ts`).join(', ') || 'plain names'} and helpers`);
    } else if (own.includes(top)) {
      if (suffix === null) continue;
      if (!Object.hasOwn(HOME_OF_SUFFIX, suffix)) problems.push(`${where}: .${suffix} is not a role suffix (STYLE.md)`);
      else {
        const problem = placementProblem(suffix, folders, roleCounts);
        if (problem) problems.push(`${where}: ${problem}`);
      }
    } else problems.push(`${where}: ${top}/ is not a folder of the skeleton (STYLE.md)`);
  }
  return problems;
}

/** The workspaces of the root package.json (`packages/*`, `services/*`, `e2e`), as folders. */
function workspaces() {
  const patterns = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces;
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(ROOT, pattern)];
    const parent = join(ROOT, pattern.slice(0, -2));
    return entriesOf(parent)
      .filter((entry) => entry.isFolder)
      .map((entry) => entry.path);
  });
}

function oneFileFolderProblems(workspace) {
  return foldersBelow(workspace)
    .filter((folder) => !Object.hasOwn(TOOL_FOLDERS, relative(workspace, folder)))
    .filter((folder) => entriesOf(folder).filter((entry) => !entry.isFolder).length === 1)
    .map((folder) => `${relative(ROOT, folder)}/: a folder of one file (STYLE.md: none; its file stands beside its kin)`);
}

const problems = [...readdirSync(join(ROOT, 'services')).flatMap(serviceProblems), ...workspaces().flatMap(oneFileFolderProblems)];

if (problems.length > 0) {
  console.error(`Files outside the skeleton (STYLE.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('Every service file stands where the skeleton puts it, and no folder holds a single file.');
