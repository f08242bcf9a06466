import { z } from 'zod';
import { LIST_CURSOR_MAX_LENGTH, paginationQuerySchema } from './pagination.js';
import { nameString } from './safe-text.js';
import { queryNumber } from './scalars.js';
import { strictFields } from './strict.js';
import { TEXT_LIMITS } from './text-limits.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks-http.js';

/** GET /api/v1/changes: the organization's change feed (webhooks service; API.md, Change feed). */

/** The types the feed carries: every public event type but `webhook.test` (which is no change). */
export const CHANGE_TYPES = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test') as Exclude<WebhookEventType, 'webhook.test'>[];
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** The longest `wait`, in seconds: a request is held open at most this long. */
export const MAX_CHANGES_WAIT_SECONDS = 30;

const knownTypes = new Set<string>(CHANGE_TYPES);
const WAIT_MESSAGE = `must be a number of seconds from 0 to ${MAX_CHANGES_WAIT_SECONDS}`;

/** `types=booking.created,booking.cancelled`: a set of feed types; an unknown one is a 400 naming it. */
const typesSchema = nameString(TEXT_LIMITS.eventTypeList, 'must be comma-separated event types')
  .transform((value) => [...new Set(value.split(',').map((type) => type.trim()))].filter((type) => type !== ''))
  .superRefine((types, ctx) => {
    if (types.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one event type' });
    const unknown = types.find((type) => !knownTypes.has(type));
    if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `has unknown event type ${unknown}` });
  })
  .transform((types) => types as ChangeType[])
  .meta({ example: 'booking.created,booking.rescheduled' });

export const listChangesQuerySchema = z.strictObject(
  {
    // Not refused here: any string that is not one of the feed's cursors, however long, is a 400 CURSOR_INVALID.
    after: z
      .string()
      .meta({ maxLength: LIST_CURSOR_MAX_LENGTH })
      .optional()
      .describe(
        "An item's `cursor` (or `meta.next_cursor`): the feed resumes right after that item. Absent: from the oldest kept. " +
          'Anything else (longer than this, or not a cursor of this feed) is a 400 `CURSOR_INVALID`.',
      ),
    limit: paginationQuerySchema.shape.limit,
    types: typesSchema.optional().describe('Only changes of these types (comma-separated).'),
    wait: queryNumber(
      z.number({ message: WAIT_MESSAGE }).min(0, { message: WAIT_MESSAGE }).max(MAX_CHANGES_WAIT_SECONDS, { message: WAIT_MESSAGE }),
    )
      .default(0)
      .describe('Seconds to hold the request open while nothing is new; it answers as soon as something arrives.')
      .meta({ example: 0 }),
  },
  strictFields,
);
export type ListChangesQuery = z.infer<typeof listChangesQuerySchema>;

/**
 * One change: the domain event as its webhook carries it (same `id`, `type`, `occurred_at` and `data`), its
 * `previous_attributes` for updates, status changes and reschedules, and the cursor that resumes after it.
 */
export const changeSchema = z
  .object({
    id: z.uuid().describe("The domain event's id: its webhook's webhook-id"),
    type: z.enum(CHANGE_TYPES),
    occurred_at: z.iso.datetime(),
    cursor: z.string().describe('Given as `after`, the feed resumes right after this item'),
    // Passed through as stored: the payloads per type are in the AsyncAPI document's webhook messages.
    data: z
      .record(z.string(), z.unknown())
      .describe('The record as GET returned it at this change, as its webhook carries it; `{id}` for deletions and removals'),
    previous_attributes: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        '`*.updated`, `*.status_changed` and `booking.rescheduled`: the fields the change altered with their values before it (updated_at aside)',
      ),
  })
  .meta({ id: 'Change' });
export type Change = z.infer<typeof changeSchema>;

export const changesMetaSchema = z.object({
  next_cursor: z.string().nullable().describe("The last item's cursor; `after` itself when nothing is new (null before any change)"),
  hasMore: z.boolean().describe('More changes are ready now: ask again with `after=next_cursor` at once'),
});

export const changesResponseSchema = z.object({ data: z.array(changeSchema), meta: changesMetaSchema }).meta({ id: 'ChangePage' });
export type ChangesResponse = z.infer<typeof changesResponseSchema>;
