import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.js';

/** What an API key stands for: its id, its organization and the organization's default time zone. */
export interface KeyIdentity {
  apiKeyId: string;
  organizationId: string;
  timezone: string;
}

export interface CreatedKey {
  id: string;
  key: string;
  name: string | null;
  createdAt: Date;
}

/** Organizations and API keys in schema `identity`. */
export class IdentityRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async createOrganization(
    name: string,
    timezone: string,
  ): Promise<{ id: string; name: string; timezone: string; createdAt: Date; apiKey: string }> {
    const key = generateApiKey();
    const organization = await this.prisma.organization.create({
      data: {
        id: randomUUID(),
        name,
        timezone,
        apiKeys: { create: { id: randomUUID(), name: 'default', keyHash: hashApiKey(key), prefix: displayPrefix(key) } },
      },
    });
    return { ...organization, apiKey: key };
  }

  async organizationExists(id: string): Promise<boolean> {
    return (await this.prisma.organization.count({ where: { id } })) > 0;
  }

  async createApiKey(organizationId: string, name: string | null): Promise<CreatedKey> {
    const key = generateApiKey();
    const row = await this.prisma.apiKey.create({
      data: { id: randomUUID(), organizationId, name, keyHash: hashApiKey(key), prefix: displayPrefix(key) },
    });
    return { id: row.id, key, name: row.name, createdAt: row.createdAt };
  }

  /** Marks a key revoked; false when there is no such active key. */
  async revokeApiKey(id: string): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    return count === 1;
  }

  async findKeyIdentity(key: string): Promise<KeyIdentity | null> {
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash: hashApiKey(key) },
      select: { id: true, revokedAt: true, organization: { select: { id: true, timezone: true } } },
    });
    if (!row || row.revokedAt) return null;
    return { apiKeyId: row.id, organizationId: row.organization.id, timezone: row.organization.timezone };
  }
}
