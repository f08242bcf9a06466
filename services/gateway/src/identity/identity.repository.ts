import { randomUUID } from 'node:crypto';
import {
  apiKeyCreatedEvent,
  apiKeyRevokedEvent,
  type ApiKeyRecord,
  type ApiKeyScope,
  type ApiKeyType,
  type ListMeta,
} from '@app/contracts';
import {
  inPageOrder,
  pageOfIds,
  recordEvent,
  requireMatch,
  SqlParams,
  type IfMatch,
  type ListDefinition,
  type ListPage,
  type Queryable,
} from '@app/service-kit';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.js';

/** What an API key stands for: its id, kind and limits, its organization and the organization's default time zone. */
export interface KeyIdentity {
  apiKeyId: string;
  organizationId: string;
  timezone: string;
  type: ApiKeyType;
  /** A restricted key's scopes; null for the other kinds. */
  scopes: ApiKeyScope[] | null;
  /** A publishable key's origins (`*`: any); null for the other kinds. */
  allowedOrigins: string[] | null;
}

export interface NewApiKey {
  name: string | null;
  type: ApiKeyType;
  scopes: ApiKeyScope[] | null;
  allowedOrigins: string[] | null;
}

/** A key just created: its record and the key itself, shown this once. */
export interface CreatedKey {
  record: ApiKeyRecord;
  key: string;
}

interface ApiKeyRow {
  id: string;
  organizationId: string;
  type: string;
  name: string | null;
  prefix: string;
  scopes: string[] | null;
  allowedOrigins: string[] | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The organization's live keys, oldest first. */
export const API_KEY_LIST: ListDefinition = {
  name: 'api-keys',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** A key as the API shows it: never its hash, never the key. */
function apiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    type: row.type as ApiKeyType,
    name: row.name,
    prefix: row.prefix,
    scopes: row.type === 'restricted' ? (row.scopes ?? []) : null,
    allowed_origins: row.type === 'publishable' ? (row.allowedOrigins ?? []) : null,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * What a key's ETag is made of: `last_used_at`, the one field of its record that changes (a key has no PATCH, and a
 * revoked key is a 404).
 */
export function apiKeyVersion(record: ApiKeyRecord): number {
  return record.last_used_at === null ? 0 : Date.parse(record.last_used_at);
}

const RECORD_COLUMNS = {
  id: true,
  organizationId: true,
  type: true,
  name: true,
  prefix: true,
  scopes: true,
  allowedOrigins: true,
  createdAt: true,
  lastUsedAt: true,
} as const;

/** The event of a key's change: its record, never the key nor its hash. */
const keyEventData = (record: ApiKeyRecord) => ({ id: record.id, type: record.type, record });

/** Inserts a key and its `api_key.created` event, in the caller's transaction. */
async function insertKey(tx: Prisma.TransactionClient, organizationId: string, key: string, fields: NewApiKey): Promise<ApiKeyRecord> {
  const row = await tx.apiKey.create({
    data: {
      id: randomUUID(),
      organizationId,
      name: fields.name,
      type: fields.type,
      keyHash: hashApiKey(key),
      prefix: displayPrefix(key),
      ...(fields.scopes === null ? {} : { scopes: fields.scopes }),
      ...(fields.allowedOrigins === null ? {} : { allowedOrigins: fields.allowedOrigins }),
    },
    select: RECORD_COLUMNS,
  });
  const created = apiKeyRecord(row);
  await recordEvent(tx, apiKeyCreatedEvent, keyEventData(created), { organizationId });
  return created;
}

/**
 * Organizations and API keys in schema `identity`. A key's creation and revocation record their event in the same
 * transaction (the kit's outbox), and `relay` is woken after the commit, so webhooks and the change feed hear of it.
 */
export class IdentityRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool?: Queryable,
    private readonly relay: { wake(): void } = { wake: () => undefined },
  ) {}

  async createOrganization(
    name: string,
    timezone: string,
  ): Promise<{ id: string; name: string; timezone: string; createdAt: Date; apiKey: string }> {
    const key = generateApiKey('secret');
    const organization = await this.prisma.$transaction(async (tx) => {
      const created = await tx.organization.create({ data: { id: randomUUID(), name, timezone } });
      await insertKey(tx, created.id, key, { name: 'default', type: 'secret', scopes: null, allowedOrigins: null });
      return created;
    });
    this.relay.wake();
    return { ...organization, apiKey: key };
  }

  async organizationExists(id: string): Promise<boolean> {
    return (await this.prisma.organization.count({ where: { id } })) > 0;
  }

  async createApiKey(organizationId: string, fields: NewApiKey): Promise<CreatedKey> {
    const key = generateApiKey(fields.type);
    const record = await this.prisma.$transaction((tx) => insertKey(tx, organizationId, key, fields));
    this.relay.wake();
    return { record, key };
  }

  /**
   * Marks a live key revoked (of `organizationId` only, when given); null when there is no such live key. With
   * `ifMatch`, the key as it is under the row lock must carry one of its tags (else 412, nothing revoked).
   */
  async revokeApiKey(id: string, organizationId?: string, ifMatch?: IfMatch): Promise<ApiKeyRecord | null> {
    const now = new Date();
    const where = { id, revokedAt: null, ...(organizationId === undefined ? {} : { organizationId }) };
    const record = await this.prisma.$transaction(async (tx) => {
      if (ifMatch !== undefined) {
        await tx.$queryRaw`SELECT 1 FROM api_keys WHERE id = ${id}::uuid FOR UPDATE`;
        const current = await tx.apiKey.findFirst({ where, select: RECORD_COLUMNS });
        if (!current) return null;
        requireMatch(ifMatch, { id, version: apiKeyVersion(apiKeyRecord(current)) });
      }
      const { count } = await tx.apiKey.updateMany({ where, data: { revokedAt: now, updatedAt: now } });
      if (count !== 1) return null;
      const row = await tx.apiKey.findUniqueOrThrow({ where: { id }, select: RECORD_COLUMNS });
      const revoked = apiKeyRecord(row);
      await recordEvent(tx, apiKeyRevokedEvent, keyEventData(revoked), { organizationId: row.organizationId });
      return revoked;
    });
    if (record) this.relay.wake();
    return record;
  }

  /** A live key of the organization; null for a revoked one, another organization's, or none. */
  async findApiKey(organizationId: string, id: string): Promise<ApiKeyRecord | null> {
    const row = await this.prisma.apiKey.findFirst({ where: { id, organizationId, revokedAt: null }, select: RECORD_COLUMNS });
    return row ? apiKeyRecord(row) : null;
  }

  /** One page of the organization's live keys (the page's ids and meta in one statement, then the rows). */
  async listApiKeys(organizationId: string, page: ListPage): Promise<{ items: ApiKeyRecord[]; meta: ListMeta }> {
    if (!this.pool) throw new Error('IdentityRepository was built without a pool: it cannot list');
    const params = new SqlParams();
    const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`, 't.revoked_at IS NULL'];
    const { ids, meta } = await pageOfIds(this.pool, page, { table: 'api_keys', conditions, params });
    const rows = await this.prisma.apiKey.findMany({ where: { organizationId, id: { in: ids } }, select: RECORD_COLUMNS });
    return { items: inPageOrder(ids, rows).map(apiKeyRecord), meta };
  }

  async findKeyIdentity(key: string): Promise<KeyIdentity | null> {
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash: hashApiKey(key) },
      select: {
        id: true,
        revokedAt: true,
        type: true,
        scopes: true,
        allowedOrigins: true,
        organization: { select: { id: true, timezone: true } },
      },
    });
    if (!row || row.revokedAt) return null;
    const type = row.type as ApiKeyType;
    return {
      apiKeyId: row.id,
      organizationId: row.organization.id,
      timezone: row.organization.timezone,
      type,
      scopes: type === 'restricted' ? ((row.scopes ?? []) as ApiKeyScope[]) : null,
      allowedOrigins: type === 'publishable' ? (row.allowedOrigins ?? []) : null,
    };
  }

  /**
   * Stamps `last_used_at` on these keys, each at most once a minute whichever gateway saw it (the condition holds
   * it across replicas too).
   */
  async touchKeys(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.prisma.$executeRaw`
      UPDATE api_keys SET last_used_at = now()
       WHERE id = ANY(${ids}::uuid[]) AND (last_used_at IS NULL OR last_used_at <= now() - interval '1 minute')`;
  }
}
