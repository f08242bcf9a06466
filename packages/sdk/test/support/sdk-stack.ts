import { ADMIN_TOKEN, startE2eStack, type E2eStack } from '@app/e2e/stack';
import { createClient, type ApiClient } from '../../src/index.js';
import { startFakeGoogle } from './fake-google.js';
import type { ScriptedServer } from './scripted-server.js';

type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
const WEEK: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export interface SdkStack {
  /** The gateway's address. */
  baseUrl: string;
  /** A client holding the admin token. */
  admin: ApiClient;
  /** A client with no key (public paths). */
  anonymous: ApiClient;
  /** A new organization (UTC) and a client holding its key. */
  organization(name?: string): Promise<ApiClient>;
  /** A new organization's API key. */
  organizationKey(name?: string): Promise<string>;
  stop(): Promise<void>;
}

/** The real processes (e2e's stack) with a fake Google behind calendar-sync; every client is the SDK's. */
export async function startSdkStack(): Promise<SdkStack> {
  const google: { server: ScriptedServer; env: Record<string, string> } = await startFakeGoogle();
  let stack: E2eStack;
  try {
    stack = await startE2eStack({ ...google.env, CALENDAR_SYNC_POLL_MS: '200' });
  } catch (error) {
    await google.server.stop();
    throw error;
  }
  const baseUrl = stack.gatewayUrl;
  const admin = createClient({ baseUrl, apiKey: ADMIN_TOKEN });
  const organizationKey = async (name = 'SDK') => {
    const { data } = await admin.POST('/admin/v1/organizations', { body: { name, timezone: 'UTC' } });
    return data.data.api_key;
  };
  return {
    baseUrl,
    admin,
    anonymous: createClient({ baseUrl }),
    organizationKey,
    async organization(name) {
      return createClient({ baseUrl, apiKey: await organizationKey(name) });
    },
    async stop() {
      await stack.stop();
      await google.server.stop();
    },
  };
}

/** A schedule open around the clock in 15-minute slots (UTC): every future quarter hour is bookable. */
export async function openSchedule(api: ApiClient): Promise<string> {
  const { data } = await api.POST('/api/v1/schedules', {
    body: {
      name: 'Always open',
      timezone: 'UTC',
      slot_duration: 15,
      availability: WEEK.map((day) => ({ day, start: '00:00', end: '24:00' })),
    },
  });
  return data.data.id;
}

/** The n-th quarter hour of the day `daysAhead` from today (UTC), as a booking interval. */
export function quarterHour(n: number, daysAhead = 1): { start_time: string; end_time: string } {
  const start = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + daysAhead) + n * 900_000;
  return { start_time: new Date(start).toISOString(), end_time: new Date(start + 900_000).toISOString() };
}

/** YYYY-MM-DD, `days` from today (UTC). */
export const day = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
