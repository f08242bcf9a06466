import { z } from 'zod';
import { nameString, proseString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';
import { defineEvent, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';
import { listQuerySchema } from './pagination.js';
import { instantSchema } from './scalars.js';
import { strictFields } from './strict.js';
import { EXAMPLE_SCHEDULE_ID } from './examples.js';

export const busyWindowSchema = z.object({ start: z.iso.datetime(), end: z.iso.datetime() });
export type BusyWindow = z.infer<typeof busyWindowSchema>;

/**
 * A successful sync of one connection: its busy windows within `range` replace whatever the scheduling
 * projection held for that connection in that range. `synced_at` orders syncs (an older one is ignored).
 * When some of the connection's calendars could not be read, their last known windows are included
 * (an unreadable calendar never turns into free time).
 */
export const calendarBusyUpdatedEvent = defineEvent(
  'calendar.busy.updated',
  z.object({
    connection_id: z.uuid(),
    schedule_id: z.uuid(),
    range: busyWindowSchema,
    windows: z.array(busyWindowSchema),
    synced_at: z.iso.datetime(),
  }),
);

/** A connection was deleted: its busy windows stop blocking at once. */
export const calendarConnectionRemovedEvent = defineEvent(
  'calendar.connection.removed',
  z.object({ connection_id: z.uuid(), schedule_id: z.uuid() }),
);

/** The events the scheduling projection consumes. */
export const CALENDAR_EVENTS = [calendarBusyUpdatedEvent, calendarConnectionRemovedEvent] as const;

// ---- HTTP: /api/v1/calendar-connections (calendar-sync service) ----

/** `ics`: a calendar published as an ICS (iCalendar) URL, read without credentials. */
export const CALENDAR_PROVIDERS = ['google', 'outlook', 'ics'] as const;
const PROVIDER_MESSAGE = 'must be google, outlook or ics';
export const calendarProviderSchema = z.enum(CALENDAR_PROVIDERS, { message: PROVIDER_MESSAGE });
export type CalendarProvider = z.infer<typeof calendarProviderSchema>;
/** The providers connected with OAuth tokens (the authorize and callback paths take these). */
export const OAUTH_CALENDAR_PROVIDERS = ['google', 'outlook'] as const;
export type OAuthCalendarProvider = (typeof OAUTH_CALENDAR_PROVIDERS)[number];
/** What `calendar_ids` shows for an ICS connection: the feed is its one calendar. */
export const ICS_CALENDAR_ID = 'ics';

/** `active`; `error`: the last sync failed and is being retried; `reauth_required`: the refresh token was refused, polling stopped. */
export const CONNECTION_STATUSES = ['active', 'error', 'reauth_required'] as const;
export const connectionStatusSchema = z.enum(CONNECTION_STATUSES, { message: `must be one of ${CONNECTION_STATUSES.join(', ')}` });
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

const tokenSchema = nameString(TEXT_LIMITS.token).min(1, { message: 'is required' });
const calendarIdSchema = nameString(TEXT_LIMITS.calendarId).trim().min(1, { message: 'must not be empty' });
const scheduleIdSchema = nameString(TEXT_LIMITS.id).min(1, { message: 'is required' });

/** Calendar ids of the account to read; `primary` is its default calendar (for Outlook `/me/calendar`). */
export const calendarIdsSchema = z
  .array(calendarIdSchema)
  .min(1, { message: 'must name at least one calendar' })
  .max(50, { message: 'must name at most 50 calendars' })
  .refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat a calendar' });

/**
 * The calendar a connection writes its schedule's bookings to (write-back): one of the account's calendar ids, or
 * `primary`; null = read only.
 */
export const writeCalendarIdSchema = calendarIdSchema.nullable();

/** OAuth tokens of a connection: accepted on creation, stored encrypted, never returned. */
export const calendarCredentialsSchema = z.strictObject(
  {
    access_token: tokenSchema,
    refresh_token: tokenSchema,
    expires_at: instantSchema,
  },
  strictFields,
);

/** POST /api/v1/calendar-connections for Google or Outlook: the account's OAuth tokens. */
const oauthConnectionBodySchema = z
  .strictObject(
    {
      provider: z.enum(OAUTH_CALENDAR_PROVIDERS, { message: PROVIDER_MESSAGE }),
      schedule_id: scheduleIdSchema,
      calendar_ids: calendarIdsSchema.default(['primary']),
      write_calendar_id: writeCalendarIdSchema.default(null),
      credentials: calendarCredentialsSchema,
    },
    strictFields,
  )
  .meta({
    id: 'CreateOAuthCalendarConnectionBody',
    example: {
      provider: 'google',
      schedule_id: EXAMPLE_SCHEDULE_ID,
      calendar_ids: ['primary'],
      credentials: { access_token: 'ya29.a0Af-example', refresh_token: '1//0g-example', expires_at: '2030-01-01T00:00:00Z' },
    },
  });

/**
 * POST /api/v1/calendar-connections for an ICS feed: its URL and no credentials (a feed URL is its own secret: it is
 * stored encrypted and never returned). `https://`, or `http://` outside production; the webhooks' address rules apply.
 */
const icsConnectionBodySchema = z
  .strictObject(
    {
      provider: z.literal('ics', { message: PROVIDER_MESSAGE }),
      schedule_id: scheduleIdSchema,
      url: nameString(TEXT_LIMITS.url, 'must be a URL').min(1, { message: 'is required' }),
    },
    strictFields,
  )
  .meta({
    id: 'CreateIcsCalendarConnectionBody',
    example: { provider: 'ics', schedule_id: EXAMPLE_SCHEDULE_ID, url: 'https://calendar.example.com/private-3f9a/basic.ics' },
  });

/** POST /api/v1/calendar-connections: OAuth tokens (google, outlook) or a feed URL (ics), told apart by `provider`. */
export const createCalendarConnectionBodySchema = z
  .discriminatedUnion('provider', [oauthConnectionBodySchema, icsConnectionBodySchema], {
    // An unknown provider names the field; a body that is no object says so (strictFields).
    error: (issue) => (issue.code === 'invalid_union' ? PROVIDER_MESSAGE : strictFields.error(issue)),
  })
  .meta({ id: 'CreateCalendarConnectionBody' });
export type CreateCalendarConnectionBody = z.infer<typeof createCalendarConnectionBodySchema>;

/** PATCH /api/v1/calendar-connections/{id}: sets or clears write-back, for the bookings that change from then on. */
export const updateCalendarConnectionBodySchema = z
  .strictObject({ write_calendar_id: writeCalendarIdSchema.optional() }, strictFields)
  .meta({ id: 'UpdateCalendarConnectionBody', example: { write_calendar_id: 'primary' } });
export type UpdateCalendarConnectionBody = z.infer<typeof updateCalendarConnectionBodySchema>;

export const calendarConnectionSchema = z
  .object({
    id: z.uuid(),
    provider: calendarProviderSchema,
    schedule_id: z.uuid(),
    calendar_ids: z.array(z.string()).meta({ description: 'the calendars read; `["ics"]` for an ICS feed (the feed is one calendar)' }),
    /**
     * The calendar bookings are written to; null = read only. Always sent by the API; optional in the schema only
     * because connection events written before write-back (still in streams, schema_version 1) carry records without it.
     */
    write_calendar_id: z.string().nullable().optional(),
    status: connectionStatusSchema,
    last_synced_at: z.string().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'CalendarConnection' });
export type CalendarConnection = z.infer<typeof calendarConnectionSchema>;

// ---- Connection events: after the record they carry ----

/**
 * Version 1 of the connection events' record: before ICS connections, `provider` was google or outlook. Every
 * version 1 event reads as version 2 as it is (the enum only grew).
 */
const connectionRecordV1 = z.object({
  // Written out, not derived from calendarConnectionSchema: version 1 stays as it was whatever the record gains.
  id: z.uuid(),
  provider: z.enum(OAUTH_CALENDAR_PROVIDERS),
  schedule_id: z.uuid(),
  calendar_ids: z.array(z.string()),
  status: connectionStatusSchema,
  last_synced_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
});

const connectionCreatedData = <Provider extends z.ZodType, Record extends z.ZodType>(provider: Provider, record: Record) =>
  z.object({
    connection_id: z.uuid(),
    schedule_id: z.uuid(),
    provider,
    calendar_ids: z.array(z.string()),
    record: publicRecord(record),
  });

/** A connection was created (by token, OAuth or an ICS URL); its first sync follows. Version 2: provider `ics`. */
export const calendarConnectionCreatedEvent = defineEvent(
  'calendar.connection.created',
  connectionCreatedData(calendarProviderSchema, calendarConnectionSchema),
  {
    version: 2,
    previous: { data: connectionCreatedData(z.enum(OAUTH_CALENDAR_PROVIDERS), connectionRecordV1), upgrade: (data) => data },
  },
);

const connectionStatusChangedData = <Record extends z.ZodType>(record: Record) =>
  z.object({
    connection_id: z.uuid(),
    schedule_id: z.uuid(),
    status: z.enum(['active', 'error', 'reauth_required']),
    previous_status: z.enum(['active', 'error', 'reauth_required']),
    last_error: z.string().nullable(),
    record: publicRecord(record),
    previous_attributes: previousAttributesSchema,
  });

/** A sync moved the connection between `active`, `error` and `reauth_required`. Version 2: its record's provider may be `ics`. */
export const calendarConnectionStatusChangedEvent = defineEvent(
  'calendar.connection.status_changed',
  connectionStatusChangedData(calendarConnectionSchema),
  { version: 2, previous: { data: connectionStatusChangedData(connectionRecordV1), upgrade: (data) => data } },
);

export const CALENDAR_EVENT_STATUSES = ['pending', 'synced', 'failed'] as const;
/** The state of the provider event calendar-sync keeps for one booking and connection (write-back). */
export const bookingCalendarEventSchema = z.object({
  booking_id: z.uuid(),
  schedule_id: z.uuid(),
  connection_id: z.uuid(),
  // Only OAuth connections write events: an ICS feed is read only.
  provider: z.enum(OAUTH_CALENDAR_PROVIDERS),
  event_id: z.string().nullable(),
  status: z.enum(CALENDAR_EVENT_STATUSES),
  last_error: z.string().nullable(),
  /** Rises with every change of this booking's write state: a projection keeps only the newest. */
  version: z.number().int().min(1),
});
export const calendarBookingEventChangedEvent = defineEvent('calendar.booking_event.changed', bookingCalendarEventSchema);

export const CALENDAR_STREAM = defineStream('CALENDAR', [
  ...CALENDAR_EVENTS,
  calendarConnectionCreatedEvent,
  calendarConnectionStatusChangedEvent,
  calendarBookingEventChangedEvent,
]);

/** GET /api/v1/calendar-connections */
export const listCalendarConnectionsQuerySchema = listQuerySchema({
  schedule_id: nameString(TEXT_LIMITS.id).optional(),
  provider: calendarProviderSchema.optional(),
  status: connectionStatusSchema.optional(),
});
export type ListCalendarConnectionsQuery = z.infer<typeof listCalendarConnectionsQuerySchema>;

export const deletedCalendarConnectionSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** GET /api/v1/calendar-connections/oauth/{provider}/authorize */
export const oauthAuthorizeQuerySchema = z.strictObject(
  {
    schedule_id: scheduleIdSchema,
    /** Comma-separated calendar ids; default `primary`. */
    calendar_ids: nameString(TEXT_LIMITS.calendarIdList)
      .transform((value) => value.split(',').map((id) => id.trim()))
      .pipe(calendarIdsSchema)
      .optional(),
    /** Asks for write-back into this calendar: the consent URL then asks for write access too. */
    write_calendar_id: calendarIdSchema.optional(),
  },
  strictFields,
);

export const oauthAuthorizeResponseSchema = z.object({ url: z.string() });

/** GET /api/calendar-connections/oauth/{provider}/callback: the provider's redirect after consent (or refusal). */
export const oauthCallbackQuerySchema = z.object({
  code: nameString(TEXT_LIMITS.oauthCode).optional(),
  state: nameString(TEXT_LIMITS.oauthCode).optional(),
  error: nameString(TEXT_LIMITS.oauthError).optional(),
  error_description: proseString(TEXT_LIMITS.oauthErrorDescription).optional(),
});
