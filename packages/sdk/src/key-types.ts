/**
 * The records of API.md's "Keys" and "Holds" sections, written from API.md: they are typed here until the
 * OpenAPI document (and so the generated schema) carries them.
 */

export type ApiKeyType = 'secret' | 'restricted' | 'publishable';

/** A scope of a restricted key: `<resource>:read` or `<resource>:write` (write includes read). */
export type ApiKeyScope = `${ScopeResource}:${'read' | 'write'}`;
export type ScopeResource =
  | 'schedules'
  | 'bookings'
  | 'holds'
  | 'event_types'
  | 'events'
  | 'registrations'
  | 'products'
  | 'media'
  | 'categories'
  | 'inventory'
  | 'calendar_connections'
  | 'webhooks'
  | 'changes';

/** `POST /api/v1/api-keys`: restricted keys need `scopes`, publishable keys `allowed_origins`. */
export type CreateApiKeyBody =
  | { name: string; type?: 'secret' }
  | { name: string; type: 'restricted'; scopes: ApiKeyScope[] }
  | { name: string; type: 'publishable'; allowed_origins: string[] };

/** A key as lists and reads show it: never the key itself. */
export interface ApiKeyRecord {
  id: string;
  type: ApiKeyType;
  name: string;
  /** The key's first 12 characters. */
  prefix: string;
  /** null except on restricted keys. */
  scopes: ApiKeyScope[] | null;
  /** null except on publishable keys. */
  allowed_origins: string[] | null;
  created_at: string;
  last_used_at: string | null;
}

/** The 201 of a key's creation: the only answer that carries `key`. */
export interface CreatedApiKey extends ApiKeyRecord {
  key: string;
}

export type HoldStatus = 'active' | 'released' | 'expired' | 'used';

/** `POST /api/v1/holds`. */
export interface CreateHoldBody {
  schedule_id: string;
  start_time: string;
  end_time: string;
  /** 1..seats_per_slot, default 1. */
  seats?: number;
  /** 30..3600, default 600. */
  ttl_seconds?: number;
}

export interface Hold {
  id: string;
  schedule_id: string;
  start_time: string;
  end_time: string;
  seats: number;
  status: HoldStatus;
  expires_at: string;
  booking_id: string | null;
  created_at: string;
}

/** A schedule as a publishable key reads it (`public_booking: true` only): exactly these fields. */
export interface PublicSchedule {
  id: string;
  name: string;
  timezone: string;
  slot_duration: number;
  seats_per_slot: number;
}

/** The list envelope (API.md, Conventions). */
export interface ListOf<T> {
  data: T[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean; next_cursor?: string | null };
}
