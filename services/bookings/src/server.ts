// Tracing starts first, and the service is imported only after it: the loader hook instruments just the modules
// (pg, http) imported after it is in place (see @app/service-kit/tracing). Off unless the OTEL_* variables ask for it.
import { startTracing } from '@app/service-kit/tracing';

await startTracing('bookings');
const { runMain } = await import('@app/service-kit');
const { configSchema } = await import('./config.js');
const { service } = await import('./service.js');

await runMain(service, configSchema);
