#!/usr/bin/env node
// Runs `prisma generate` for the service in the current directory.
// Prisma's CLI wants a schema engine binary it would download; generating a client never runs it,
// so any existing file satisfies the check (this machine cannot download it).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const prismaCli = require.resolve('prisma/build/index.js');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', 'prisma/schema.prisma'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
