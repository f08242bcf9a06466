/**
 * The longest each kind of free-form request string may be (API.md, Conventions, "Size and text limits everywhere"),
 * in one place so the schemas and the documented `maxLength`s agree. Characters are UTF-16 code units, as zod and
 * JSON Schema count them.
 */
export const TEXT_LIMITS = {
  /** People, products, schedules, organizations, API keys, registrations. */
  name: 200,
  /** Titles of events and event types (the spec's 200). */
  shortTitle: 200,
  /** A booking's title. */
  title: 500,
  /** An email address (RFC 5321's longest forward path, less its brackets). */
  email: 254,
  phone: 50,
  /** A URL a client gives (webhook endpoints). */
  url: 2048,
  /** Descriptions and notes of events, event types and attendees. */
  description: 5000,
  /** A product's description (long-form copy). */
  productDescription: 10_000,
  /** A webhook endpoint's description (a label). */
  label: 500,
  /** Where something happens: a booking's location, an event type's details. */
  location: 1000,
  /** An event's location. */
  eventLocation: 500,
  altText: 1000,
  /** A key of a `metadata` object. */
  metadataKey: 256,
  slug: 200,
  /** A variant's stock keeping unit. */
  sku: 100,
  eventTypeSlug: 100,
  /** A record id a client passes (checked by the use case, so a malformed one is a 404). */
  id: 100,
  /** A search term or filter of a list. */
  search: 200,
  /** An event type name (`booking.created`) of a webhook subscription. */
  eventType: 100,
  /** Comma-separated event types of the change feed's `types` (every public type once, with room for spaces). */
  eventTypeList: 2600,
  /** A provider's calendar id. */
  calendarId: 1024,
  /** An OAuth access or refresh token. */
  token: 16_384,
  /** An OAuth authorization code or state a provider sends back. */
  oauthCode: 8192,
  /** An OAuth error code a provider sends back, and its description. */
  oauthError: 1000,
  oauthErrorDescription: 4000,
  /** Comma-separated calendar ids of the authorize query (50 ids of at most 1024 characters, with room for spaces). */
  calendarIdList: 20_000,
} as const;

/** The most a `metadata` object may weigh: UTF-8 bytes of its JSON serialisation. */
export const METADATA_MAX_BYTES = 16 * 1024;
