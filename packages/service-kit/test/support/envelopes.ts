import { randomUUID } from 'node:crypto';

/** The fields of an event envelope, as a producer's outbox relay publishes them. */
interface Envelope {
  id: string;
  type: string;
  schema_version?: number;
  occurred_at: string;
  organization_id: string;
  correlation_id: string | null;
  data: unknown;
}

/**
 * An envelope of `type` around `data` (not parsed, so a test can send what a consumer must refuse): a fresh id and
 * organization, schema_version 1, no correlation, unless `fields` says otherwise (`schema_version: undefined`
 * leaves it out, as a publisher from before versions did).
 */
export function envelopeOf(type: string, data: unknown, fields: Partial<Envelope> = {}): Envelope {
  return {
    id: randomUUID(),
    type,
    schema_version: 1,
    occurred_at: new Date().toISOString(),
    organization_id: randomUUID(),
    correlation_id: null,
    data,
    ...fields,
  };
}
