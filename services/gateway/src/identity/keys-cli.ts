/**
 * Organizations and API keys from a shell (the same operations as the admin API):
 *   npm run keys -- create-org "Acme" [Europe/Berlin]
 *   npm run keys -- create-key <organization-id> [name]
 *   npm run keys -- revoke <api-key-id>
 */
import { isIanaTimeZone } from '@app/contracts';
import { createPool, loadConfig, migrate, prismaAdapter } from '@app/service-kit';
import { configSchema } from '../config.js';
import { IdentityRepository } from './identity.repository.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { MIGRATIONS_DIR, SCHEMA } from '../service.js';

const USAGE = 'usage: npm run keys -- create-org "<name>" [timezone] | create-key <organization-id> [name] | revoke <api-key-id>';

async function main(args: string[]): Promise<number> {
  const [command, first, second] = args;
  if (!command || !first) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(configSchema);
  await migrate({ databaseUrl: config.DATABASE_URL, schema: SCHEMA, dir: MIGRATIONS_DIR });
  const pool = createPool(config.DATABASE_URL, { max: 2, log: console, schema: SCHEMA });
  const prisma = new PrismaClient({ adapter: prismaAdapter(pool, SCHEMA) });
  const identity = new IdentityRepository(prisma, pool);
  try {
    switch (command) {
      case 'create-org': {
        const timezone = second ?? 'UTC';
        if (!isIanaTimeZone(timezone)) throw new Error(`Unknown time zone "${timezone}"`);
        const org = await identity.createOrganization(first, timezone);
        console.log(`organization ${org.id} (${org.name}, ${org.timezone})\napi key: ${org.apiKey}`);
        return 0;
      }
      case 'create-key': {
        if (!(await identity.organizationExists(first))) throw new Error(`No organization ${first}`);
        const created = await identity.createApiKey(first, { name: second ?? null, type: 'secret', scopes: null, allowedOrigins: null });
        console.log(`api key ${created.record.id}: ${created.key}`);
        return 0;
      }
      case 'revoke':
        if (!(await identity.revokeApiKey(first))) throw new Error(`No active API key ${first}`);
        console.log(`revoked ${first} (refused everywhere within 5 s)`);
        return 0;
      default:
        console.error(USAGE);
        return 2;
    }
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
