import { randomUUID } from 'node:crypto';
import type { ListMeta } from '@app/contracts';
import { inPageOrder, pageOfIds, SqlParams, sqlOf, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { WebhookEndpoint } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type EndpointRow = WebhookEndpoint;

export interface EndpointFields {
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
}

export function insertEndpoint(db: Db, organizationId: string, fields: EndpointFields & { secret: string }): Promise<EndpointRow> {
  return db.webhookEndpoint.create({ data: { id: randomUUID(), organizationId, ...fields } });
}

export function findEndpoint(db: Db, organizationId: string, id: string): Promise<EndpointRow | null> {
  return db.webhookEndpoint.findFirst({ where: { id, organizationId } });
}

/** Oldest first, then by id: served by webhook_endpoints_organization_idx (organization, created_at, id). */
export const ENDPOINT_LIST: ListDefinition = {
  name: 'webhook-endpoints',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of the organization's endpoints (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listEndpoints(
  db: { pool: Queryable; prisma: Db },
  organizationId: string,
  page: ListPage,
): Promise<{ rows: EndpointRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`];
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'webhook_endpoints', conditions, params });
  const rows = await db.prisma.webhookEndpoint.findMany({ where: { organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}

/** Applies a PATCH; enabling clears the reason it was disabled for and starts its failure clock afresh. */
export async function updateEndpoint(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<EndpointFields>,
): Promise<EndpointRow | null> {
  const reenabled = changes.enabled === true ? { disabledReason: null, failingSince: null } : {};
  const { count } = await db.webhookEndpoint.updateMany({
    where: { id, organizationId },
    data: { ...changes, ...reenabled, updatedAt: new Date() },
  });
  return count === 0 ? null : findEndpoint(db, organizationId, id);
}

export async function deleteEndpoint(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id, organizationId } });
  return count > 0;
}

/** Makes `secret` the current one; the current one becomes the previous, signing beside it until `previousUntil`. */
export async function rotateSecret(db: Db, organizationId: string, id: string, secret: string, previousUntil: Date): Promise<boolean> {
  const { rowCount } = await sqlOf(db).query(
    `UPDATE webhook_endpoints
        SET previous_secret = secret, secret = $3, previous_secret_expires_at = $4, updated_at = now()
      WHERE id = $1::uuid AND organization_id = $2::uuid
  RETURNING id`,
    [id, organizationId, secret, previousUntil],
  );
  return rowCount === 1;
}
