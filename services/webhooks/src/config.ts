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

/** Unset: the transform below makes it true only where NODE_ENV says development or test, so production fails closed. */
const outsideProduction = z.stringbool().optional();

export const configSchema = baseConfigSchema
  .safeExtend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3006),
    WEBHOOKS_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(120_000)
      .default(15_000)
      .meta({ description: 'a delivery attempt without a 2xx within this is a failure' }),
    WEBHOOKS_RETRY_SCHEDULE_MS: retrySchedule.meta({
      description:
        'comma-separated delays in ms between attempts, each counted from the attempt before it (about 27 h in all); after the last the delivery is `failed`',
    }),
    WEBHOOKS_DISABLE_AFTER_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(5 * DAY_MS)
      .meta({
        description: 'an endpoint whose attempts have all failed this long is disabled (`enabled: false`, `disabled_reason`)',
        defaultText: '`432000000` (5 days)',
      }),
    WEBHOOKS_ALLOW_HTTP: outsideProduction.meta({
      description: 'plain `http://` endpoint URLs are accepted (`true`/`false`)',
      defaultText: '`true` with `NODE_ENV=development` or `test`, else `false`',
    }),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: outsideProduction.meta({
      description:
        "endpoints on loopback, private, link-local, multicast or unspecified addresses are accepted, and so are such addresses inside IPv4-mapped (`::ffff:0:0/96`) and NAT64 (`64:ff9b::/96`) IPv6 addresses; IPv4-compatible (`::/96`), local-use NAT64 (`64:ff9b:1::/48`), 6to4 and Teredo addresses are refused whatever they carry (`false`: refused at create and at every connect; the kit's `isPublicAddress`)",
      defaultText: '`true` with `NODE_ENV=development` or `test`, else `false`',
    }),
    WEBHOOKS_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(32)
      .meta({ description: 'attempts in flight per replica, at most (fewer while bookings are written and claims run slow)' }),
  })
  .transform((config) => ({
    ...config,
    WEBHOOKS_ALLOW_HTTP: config.WEBHOOKS_ALLOW_HTTP ?? developmentSecretsAllowed(config),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? developmentSecretsAllowed(config),
  }));
export type Config = z.infer<typeof configSchema>;

/**
 * What webhooks runs with that no deployment sets: constants, not variables (docs/configuration.md lists only what an
 * operator decides). Tests that need other values pass them to `createServiceDefinition({ tuning })`.
 */
export interface Tuning {
  /** Attempts in flight to one endpoint (over all replicas, as near as claims allow); also one replica's connections to its origin. */
  endpointConcurrency: number;
  /** How often a replica claims due deliveries besides the wakes (new deliveries, manual retries, a finished attempt). */
  pollMs: number;
  /** While no read waits on the change feed, how long its ingesters let arrived messages wait for more. */
  feedLingerMs: number;
}

export const TUNING: Tuning = {
  // One slow receiver holds four attempts and never the others'. Four is also the pacer's floor while bookings are
  // written: at 200 bookings/s to one endpoint a floor of one let deliveries fall 3.2–3.7 s behind, four kept them
  // 21–43 ms behind (workers/delivery.worker.ts, bench/scenarios/webhooks.mjs); a customer's server sees at most four
  // connections per replica.
  endpointConcurrency: 4,
  // What no wake announces — a retry coming due, another replica's fan-out, a stopped replica's lapsed claim — is
  // claimed within a second, at the cost of one claim statement a second per idle replica.
  pollMs: 1000,
  // Under a steady write load each event otherwise took a transaction of its own and a re-read of the frontier: at
  // 266 bookings/s the service's CPU per booking went 0.63 → 0.37 ms. No reader waits out the linger (`hurry`).
  feedLingerMs: 50,
};
