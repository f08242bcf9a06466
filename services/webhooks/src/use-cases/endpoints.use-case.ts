import {
  ALL_WEBHOOK_EVENTS,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointBody,
  type ListMeta,
  type Pagination,
  type UpdateWebhookEndpointBody,
  type WebhookEndpointRecord,
} from '@app/contracts';
import {
  checkTargetUrl,
  listPage,
  lockedMatch,
  notFound,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import type { Db } from '../db/prisma.js';
import {
  deleteEndpoint as deleteEndpointRow,
  ENDPOINT_LIST,
  findEndpoint,
  insertEndpoint,
  listEndpoints as listEndpointRows,
  rotateSecret as rotateSecretOf,
  updateEndpoint as updateEndpointRow,
  type EndpointRow,
} from '../db/endpoint.repository.js';
import { newSecret, ROTATION_OVERLAP_MS } from '../domain/secret.js';
import { createdEndpointRecord, endpointRecord } from '../domain/webhook.record.js';
import type { UseCaseContext } from './context.js';

const ENDPOINT = 'Webhook endpoint';

export async function createEndpoint(
  ctx: UseCaseContext,
  caller: Caller,
  body: CreateWebhookEndpointBody,
): Promise<CreatedWebhookEndpoint> {
  const url = await checkTargetUrl(body.url, ctx.targets, ctx.resolve);
  const created = await insertEndpoint(ctx.prisma, caller.organizationId, {
    url,
    events: body.events ?? [ALL_WEBHOOK_EVENTS],
    description: body.description ?? null,
    enabled: body.enabled ?? true,
    secret: newSecret(),
  });
  return createdEndpointRecord(created);
}

/** The stored endpoint of the caller's organization; another organization's, an unknown or a malformed id is a 404. */
export async function ownEndpoint(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<EndpointRow> {
  const endpoint = await findEndpoint(ctx.prisma, caller.organizationId, recordId(rawId, ENDPOINT));
  if (!endpoint) throw notFound(ENDPOINT);
  return endpoint;
}

export async function getEndpoint(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<WebhookEndpointRecord>> {
  const endpoint = await ownEndpoint(ctx, caller, rawId);
  return { record: endpointRecord(endpoint), version: endpoint.version };
}

/**
 * Runs `write` on the endpoint: with an If-Match, in a transaction that first checks it under the endpoint's row
 * lock (a concurrent change with the same ETag waits, then finds the new version); without one, as it is.
 */
async function matchedWrite<T>(
  ctx: UseCaseContext,
  caller: Caller,
  id: string,
  ifMatch: IfMatch | undefined,
  write: (db: Db) => Promise<T>,
): Promise<T> {
  if (ifMatch === undefined) return write(ctx.prisma);
  return ctx.prisma.$transaction(async (tx) => {
    if (!(await lockedMatch(tx, 'webhook_endpoints', caller.organizationId, id, ifMatch))) throw notFound(ENDPOINT);
    return write(tx);
  });
}

export async function listEndpoints(
  ctx: UseCaseContext,
  caller: Caller,
  query: Pagination,
): Promise<{ items: WebhookEndpointRecord[]; meta: ListMeta }> {
  const page = listPage(ENDPOINT_LIST, { organizationId: caller.organizationId }, query);
  const { rows, meta } = await listEndpointRows(ctx, caller.organizationId, page);
  return { items: rows.map(endpointRecord), meta };
}

export async function updateEndpoint(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, patch, ifMatch }: { id: string; patch: UpdateWebhookEndpointBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<WebhookEndpointRecord>> {
  const id = recordId(rawId, ENDPOINT);
  // The record first: another organization's endpoint is a 404, and a stale If-Match a 412, before its new URL is judged.
  const current = await ownEndpoint(ctx, caller, id);
  requireMatch(ifMatch, current);
  const url = patch.url === undefined ? undefined : await checkTargetUrl(patch.url, ctx.targets, ctx.resolve);
  const endpoint = await matchedWrite(ctx, caller, id, ifMatch, (db) =>
    updateEndpointRow(db, caller.organizationId, id, {
      ...(url === undefined ? {} : { url }),
      ...(patch.events === undefined ? {} : { events: patch.events }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    }),
  );
  if (!endpoint) throw notFound(ENDPOINT);
  // Re-enabled: its pending deliveries are due again.
  if (patch.enabled === true) ctx.wakeDeliveries();
  return { record: endpointRecord(endpoint), version: endpoint.version };
}

export async function deleteEndpoint(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, ENDPOINT);
  if (!(await matchedWrite(ctx, caller, id, ifMatch, (db) => deleteEndpointRow(db, caller.organizationId, id)))) throw notFound(ENDPOINT);
  return { id, deleted: true };
}

export async function getSecret(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<{ secret: string }> {
  return { secret: (await ownEndpoint(ctx, caller, rawId)).secret };
}

/** A new current secret; the one it replaces keeps signing beside it for 24 h (two signatures per attempt). */
export async function rotateSecret(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<{ secret: string }> {
  const id = recordId(rawId, ENDPOINT);
  const secret = newSecret();
  const rotated = await rotateSecretOf(ctx.prisma, caller.organizationId, id, secret, new Date(ctx.now().getTime() + ROTATION_OVERLAP_MS));
  if (!rotated) throw notFound(ENDPOINT);
  return { secret };
}
