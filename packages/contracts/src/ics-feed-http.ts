import { z } from 'zod';

/** POST /api/v1/schedules/{id}/ics-feed: the feed's secret address, which needs no key (shown at each creation only). */
export const icsFeedSchema = z
  .object({
    url: z.url().describe('`{PUBLIC_BASE_URL}/ics/<token>.ics`: anyone holding it reads the feed; POST again to replace it'),
  })
  .meta({ id: 'IcsFeed' });
export type IcsFeed = z.infer<typeof icsFeedSchema>;

/** DELETE /api/v1/schedules/{id}/ics-feed */
export const deletedIcsFeedSchema = z.object({ schedule_id: z.uuid(), deleted: z.literal(true) });

/** GET /ics/{token}.ics: the token of a feed's URL. */
export const icsFeedTokenParamsSchema = z.object({ token: z.string().describe('The secret token of the feed URL') });
