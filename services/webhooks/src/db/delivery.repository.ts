import { randomUUID } from 'node:crypto';
import type { ListMeta } from '@app/contracts';
import { inPageOrder, namedStatement, pageOfIds, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { WebhookDelivery } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type DeliveryRow = WebhookDelivery;

/** An event to fan out: its public type and the body every endpoint receives. */
export interface OutgoingEvent {
  id: string;
  organizationId: string;
  type: string;
  body: string;
}

/**
 * One pending delivery per enabled endpoint of the event's organization that subscribes to its type, due now.
 * Runs in the consumer's transaction, beside the inbox row: the event is fanned out exactly once or not at all.
 */
export async function fanOut(tx: Queryable, event: OutgoingEvent): Promise<number> {
  const { rowCount } = await tx.query(
    namedStatement(
      `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, event_type, body, next_attempt_at)
     SELECT gen_random_uuid(), e.organization_id, e.id, $2::uuid, $3, $4, now()
       FROM webhook_endpoints e
      WHERE e.organization_id = $1::uuid AND e.enabled AND e.events && ARRAY['*', $3]::text[]
     ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      [event.organizationId, event.id, event.type, event.body],
    ),
  );
  return rowCount ?? 0;
}

/** Which of these organizations have an enabled endpoint: the only ones an event can be fanned out for. */
export async function organizationsWithEnabledEndpoints(db: Queryable, organizationIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ organization_id: string }>(
    'SELECT DISTINCT organization_id::text FROM webhook_endpoints WHERE organization_id = ANY($1::uuid[]) AND enabled',
    [organizationIds],
  );
  return new Set(rows.map((row) => row.organization_id));
}

/** A delivery to one endpoint whatever its subscriptions (webhook.test), due now. */
export function insertDelivery(db: Db, endpointId: string, event: OutgoingEvent): Promise<DeliveryRow> {
  return db.webhookDelivery.create({
    data: {
      id: randomUUID(),
      organizationId: event.organizationId,
      endpointId,
      eventId: event.id,
      eventType: event.type,
      body: event.body,
      nextAttemptAt: new Date(),
    },
  });
}

/** Newest first, then by id: served by webhook_deliveries_endpoint_idx (endpoint, created_at DESC, id DESC). */
export const DELIVERY_LIST: ListDefinition = {
  name: 'webhook-deliveries',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'DESC',
  },
};

/** One page of an endpoint's deliveries (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listDeliveries(
  db: { pool: Queryable; prisma: Db },
  filter: { organizationId: string; endpointId: string; status?: string | undefined },
  page: ListPage,
): Promise<{ rows: DeliveryRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [
    `t.organization_id = ${params.add(filter.organizationId)}::uuid`,
    `t.endpoint_id = ${params.add(filter.endpointId)}::uuid`,
  ];
  if (filter.status) conditions.push(`t.status = ${params.add(filter.status)}`);
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'webhook_deliveries', conditions, params });
  const rows = await db.prisma.webhookDelivery.findMany({ where: { organizationId: filter.organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}

export function findDelivery(db: Db, organizationId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
  return db.webhookDelivery.findFirst({ where: { id, endpointId, organizationId } });
}

/** Makes a delivery due now again (a manual retry), whatever its status; its attempts and log stay. */
export async function requeueDelivery(db: Db, organizationId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id, endpointId, organizationId },
    data: { status: 'pending', nextAttemptAt: new Date() },
  });
  return count === 0 ? null : findDelivery(db, organizationId, endpointId, id);
}

/** A delivery claimed for one attempt, with what sending it needs. `leaseToken` fences the recording of its result. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  body: string;
  attempts: number;
  leaseToken: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints, at most `perEndpoint` in flight per endpoint (counting
 * those other replicas hold), organizations taking turns (each one's first due delivery before anyone's second), so no
 * organization's backlog, however many endpoints it spreads over, delays another's deliveries. FOR UPDATE SKIP LOCKED lets replicas claim side by side without taking one row twice;
 * the lease keeps an attempt to one replica until it is recorded or the lease runs out (a crashed replica's
 * deliveries are then sent again, with the same webhook-id: at least once). The status and lease conditions are on
 * the locked rows themselves, so a row another replica claimed meanwhile is re-checked and left out.
 * Its cost does not grow with the backlog: `waiting` finds the endpoints with pending deliveries by a loose scan (one
 * index probe each), and per endpoint only its unexpired leases and its oldest `perEndpoint` due ones are read
 * (migrations 0002 and 0003). Planned on every call, unlike the statements around it (see `namedStatement`): as a
 * named statement it kept the generic plan made while the table was nearly empty, which joins the picked ids by a
 * sequential scan, and a backlog of 25,000–30,000 deliveries to 5 endpoints drained at 730–1,450 a second (up to 9 ms
 * a claim) instead of 2,100–3,100 (bench/scenarios/webhooks.mjs).
 */
export async function claimDueDeliveries(db: Queryable, limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>(
    `WITH RECURSIVE waiting AS (
       (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
       UNION ALL
       SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                WHERE d.status = 'pending' AND d.endpoint_id > w.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
         FROM waiting w
        WHERE w.endpoint_id IS NOT NULL
     ), due_now AS (
       SELECT due.id, due.next_attempt_at, e.organization_id
         FROM waiting w
         JOIN webhook_endpoints e ON e.id = w.endpoint_id AND e.enabled
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS n FROM webhook_deliveries busy
            WHERE busy.endpoint_id = e.id AND busy.status = 'pending' AND busy.lease_token IS NOT NULL
              AND busy.lease_expires_at > now()
         ) busy
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
            WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= now()
              AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= now())
            ORDER BY d.next_attempt_at, d.id
            LIMIT greatest($2::int - busy.n, 0)
            FOR UPDATE OF d SKIP LOCKED
         ) due
     ), picked AS (
       -- Organizations take turns: each one's oldest due delivery first, so one with many endpoints cannot fill the claim.
       SELECT id FROM due_now
        ORDER BY row_number() OVER (PARTITION BY organization_id ORDER BY next_attempt_at), next_attempt_at
        LIMIT $1::int
     )
     UPDATE webhook_deliveries d
        SET lease_token = gen_random_uuid(), lease_expires_at = now() + make_interval(secs => $3::float8)
       FROM webhook_endpoints e
      WHERE d.id IN (SELECT id FROM picked) AND e.id = d.endpoint_id
  RETURNING d.id::text AS id, d.endpoint_id::text AS "endpointId", d.event_id::text AS "eventId", d.body, d.attempts,
            d.lease_token::text AS "leaseToken", e.url, e.secret, e.previous_secret AS "previousSecret",
            e.previous_secret_expires_at AS "previousSecretExpiresAt"`,
    [limit, perEndpoint, leaseMs / 1000],
  );
  return rows;
}

export interface AttemptRecord {
  at: Date;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  /** The delivery's status after this attempt, and when the next one is due (pending only). */
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
}

/** Records one attempt and releases the claim; false when the lease was lost (another replica took it over). */
export async function recordAttempt(tx: Queryable, claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
  const { rowCount } = await tx.query(
    namedStatement(
      `UPDATE webhook_deliveries
        SET attempts = attempts + 1, status = $3, next_attempt_at = $4, last_attempt_at = $5,
            last_response_status = $6, last_error = $7,
            attempts_log = attempts_log || jsonb_build_array(jsonb_build_object(
              'at', $8::text, 'response_status', $6::int, 'error', $7::text, 'duration_ms', $9::int)),
            lease_token = NULL, lease_expires_at = NULL
      WHERE id = $1::uuid AND lease_token = $2::uuid`,
      [
        claim.id,
        claim.leaseToken,
        attempt.status,
        attempt.nextAttemptAt,
        attempt.at,
        attempt.responseStatus,
        attempt.error,
        attempt.at.toISOString(),
        attempt.durationMs,
      ],
    ),
  );
  return rowCount === 1;
}

/** A successful attempt of a claimed delivery, to record. */
export interface Success {
  claim: ClaimedDelivery;
  at: Date;
  responseStatus: number;
  durationMs: number;
}

/**
 * Records successful attempts and ends their endpoints' runs of failures, atomically in one statement: one round trip
 * and one commit for a whole batch, where each delivery took a transaction of four (BEGIN, two updates, COMMIT) —
 * most of what a delivery cost Postgres and the service. Returns the ids recorded; one missing lost its lease
 * (another replica took it over). Planned on every call: a generic plan made while the table was small joins the
 * batch by a sequential scan of every delivery (see `namedStatement`).
 */
export async function recordSuccesses(db: Queryable, successes: readonly Success[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `WITH recorded AS (
       UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, status = 'succeeded', next_attempt_at = NULL, last_attempt_at = s.at,
              last_response_status = s.response_status, last_error = NULL,
              attempts_log = d.attempts_log || jsonb_build_array(jsonb_build_object(
                'at', s.at_text, 'response_status', s.response_status, 'error', NULL, 'duration_ms', s.duration_ms)),
              lease_token = NULL, lease_expires_at = NULL
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::text[], $5::int[], $6::int[])
              AS s(id, lease_token, at, at_text, response_status, duration_ms)
        WHERE d.id = s.id AND d.lease_token = s.lease_token
       RETURNING d.id, d.endpoint_id
     ), cleared AS (
       UPDATE webhook_endpoints SET failing_since = NULL
        WHERE id IN (SELECT endpoint_id FROM recorded) AND failing_since IS NOT NULL
     )
     SELECT id::text FROM recorded`,
    [
      successes.map((s) => s.claim.id),
      successes.map((s) => s.claim.leaseToken),
      successes.map((s) => s.at),
      successes.map((s) => s.at.toISOString()),
      successes.map((s) => s.responseStatus),
      successes.map((s) => s.durationMs),
    ],
  );
  return new Set(rows.map((row) => row.id));
}

/** A failure starts (or continues) the endpoint's run of failures; returns when that run began. */
export async function endpointFailed(tx: Queryable, endpointId: string, at: Date): Promise<Date | null> {
  const { rows } = await tx.query<{ failing_since: Date }>(
    `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1::uuid RETURNING failing_since`,
    [endpointId, at],
  );
  return rows[0]?.failing_since ?? null;
}

export async function disableEndpoint(tx: Queryable, endpointId: string, reason: string): Promise<void> {
  await tx.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1::uuid AND enabled`, [
    endpointId,
    reason,
  ]);
}
