import { runMain } from '@app/service-kit';
import { configSchema } from './config.js';
import { service } from './service.js';

await runMain(service, configSchema);
