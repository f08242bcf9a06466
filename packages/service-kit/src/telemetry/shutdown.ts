/** How the started SDK is flushed and stopped; unset while tracing is off. */
let shutdown: (() => Promise<void>) | undefined;

export function onTracingShutdown(stop: () => Promise<void>): void {
  shutdown = stop;
}

/**
 * Exports the spans still in the batch and stops the SDK: called last before a graceful exit, so the spans of the
 * final requests are not lost. A failing or unreachable collector never holds the exit up: it is given up on.
 */
export async function shutdownTracing(timeoutMs = 3000): Promise<void> {
  if (!shutdown) return;
  const stop = shutdown;
  shutdown = undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([stop().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
