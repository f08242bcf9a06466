import { register } from 'node:module';
import { onTracingShutdown } from './shutdown.js';
import { defaultServiceName, tracingRequested } from './tracing-env.js';

/**
 * The first thing a service's `server.ts` does (`@app/service-kit/tracing`), before it imports anything else:
 * when the OTEL_* variables ask for tracing, starts the OpenTelemetry SDK with the HTTP, undici, Fastify and pg
 * instrumentations; otherwise does nothing and loads nothing. pg and the rest are ES modules imported by ES
 * modules, which only a loader hook (import-in-the-middle) can instrument, and only for modules imported after it
 * is registered: so `server.ts` imports the service dynamically after this resolves. Every way a service is
 * started (`npm start`, the e2e stack, the image's CMD, Kubernetes) runs `node dist/server.js`, so none needs a
 * `--import` flag. `service` is the default service.name (OTEL_SERVICE_NAME wins).
 *
 * This module imports nothing but node:module and its own small siblings: anything it loaded statically would be
 * loaded before the hook and stay uninstrumented.
 */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!tracingRequested(env)) return;
  // Only the modules an instrumentation asks for are wrapped (the others load as usual); the channel tells the
  // hook which ones, and waiting for its acknowledgement makes sure it knows before the service's imports run.
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const { createNodeSdk } = await import('./node-sdk.js');
  const sdk = createNodeSdk(defaultServiceName(env, service));
  sdk.start();
  await waitForAllMessagesAcknowledged();
  onTracingShutdown(() => sdk.shutdown());
}
