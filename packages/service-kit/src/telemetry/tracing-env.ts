/**
 * Whether the process should start the OpenTelemetry SDK, read from the standard OTEL_* variables. Tracing is
 * opt-in: without an exporter endpoint or an explicit OTEL_TRACES_EXPORTER nothing is started and nothing is sent
 * (the SDK's own default would export to localhost:4318). OTEL_SDK_DISABLED=true turns it off whatever else is set.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.length > 0) return !exporters.every((name) => name === 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * The service.name to give the SDK: the service's own name unless the operator named it (OTEL_SERVICE_NAME, or
 * service.name in OTEL_RESOURCE_ATTRIBUTES), which the SDK's environment detector then applies.
 */
export function defaultServiceName(env: NodeJS.ProcessEnv, service: string): string | undefined {
  if (env.OTEL_SERVICE_NAME?.trim()) return undefined;
  const named = (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',').some((pair) => pair.trim().startsWith('service.name='));
  return named ? undefined : service;
}
