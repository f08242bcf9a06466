import { runMigrationStep } from '@app/service-kit';
import { MIGRATIONS_DIR, SCHEMA } from './service.js';

await runMigrationStep({ name: 'webhooks', schema: SCHEMA, dir: MIGRATIONS_DIR });
