import { z } from 'zod';
import { baseConfigSchema, developmentSecretsAllowed } from '@app/service-kit';

const DEFAULT_RETRY_SCHEDULE_MS = '5000,300000,1800000,7200000,18000000,36000000,36000000';
const DAY_MS = 86_400_000;

/** A comma-separated list of delays in ms, each counted from the attempt before it. */
const retrySchedule = z
  .string()
  .default(DEFAULT_RETRY_SCHEDULE_MS)
  .transform((value) => value.split(',').map((part) => Number(part.trim())))
  .refine((delays) => delays.every((delay) => Number.isInteger(delay) && delay >= 0), {
    message: 'must be comma-separated non-negative integers (milliseconds)',
  });

/** `true`/`false`; unset: true only where NODE_ENV says development or test (unset counts as production, so it fails closed). */
const outsideProduction = z.stringbool().optional();

export const configSchema = baseConfigSchema
  .safeExtend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3006),
    /** A delivery attempt that has no 2xx within this is a failure. */
    WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    WEBHOOKS_RETRY_SCHEDULE_MS: retrySchedule,
    /** An endpoint whose attempts have all failed for this long is disabled. */
    WEBHOOKS_DISABLE_AFTER_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(5 * DAY_MS),
    /** Plain http:// endpoint URLs. */
    WEBHOOKS_ALLOW_HTTP: outsideProduction,
    /** Endpoints on loopback, private, link-local, multicast or unspecified addresses. */
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: outsideProduction,
    /** Deliveries in flight at once in one replica. */
    WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
    /** Deliveries in flight at once to one endpoint (over all replicas, as near as claims allow). */
    WEBHOOKS_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    /** How often a replica looks for due deliveries (new ones wake it at once). */
    WEBHOOKS_POLL_MS: z.coerce.number().int().min(10).default(1000),
  })
  .transform((config) => ({
    ...config,
    WEBHOOKS_ALLOW_HTTP: config.WEBHOOKS_ALLOW_HTTP ?? developmentSecretsAllowed(config),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? developmentSecretsAllowed(config),
  }));
export type Config = z.infer<typeof configSchema>;
