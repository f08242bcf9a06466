import { loadConfig, migrate } from '@app/service-kit';
import { configSchema } from './config.js';
import { MIGRATIONS_DIR, SCHEMA } from './service.js';

const config = loadConfig(configSchema);
await migrate({ databaseUrl: config.DATABASE_URL, schema: SCHEMA, dir: MIGRATIONS_DIR, log: (m) => console.log(`[catalog] ${m}`) });
