import { z } from 'zod';
import { apiKeySchema } from './identity.js';
import { defineEvent, defineStream } from './messaging.js';
import { publicRecord } from './public-record.js';

/**
 * A key's creation and revocation (API.md "Keys"), published by the gateway, which owns the keys: `record` is the
 * key as `GET /api/v1/api-keys/{id}` shows it, never the key itself nor its hash.
 */
const apiKeyChange = z.object({ id: z.uuid(), type: z.string(), record: publicRecord(apiKeySchema) });
export const apiKeyCreatedEvent = defineEvent('identity.api_key.created', apiKeyChange);
export const apiKeyRevokedEvent = defineEvent('identity.api_key.revoked', apiKeyChange);

export const IDENTITY_EVENTS = [apiKeyCreatedEvent, apiKeyRevokedEvent] as const;
export const IDENTITY_STREAM = defineStream('IDENTITY', IDENTITY_EVENTS);
