import { dataEnvelope, deletedIcsFeedSchema, errorResponses, icsFeedSchema } from '@app/contracts';
import { callerOf, idParamsSchema, type ServiceApp } from '@app/service-kit';
import { createFeed, deleteFeed } from '../use-cases/ics-feed.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

const PATH = '/api/v1/schedules/:id/ics-feed';
const tags = ['ics-feeds'];

/** /api/v1/schedules/{id}/ics-feed: a schedule's secret calendar URL (the gateway routes this path here, not to scheduling). */
export function registerIcsFeedRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    PATH,
    {
      schema: {
        operationId: 'createIcsFeed',
        summary: "Create the schedule's ICS feed, or replace its URL (the old one is then 404)",
        description:
          'The URL serves the PENDING and CONFIRMED bookings of the schedule from 30 days ago to 365 days ahead as ' +
          'RFC 5545 `text/calendar`, needs no key, and is shown only here.',
        tags,
        params: idParamsSchema,
        response: { 201: dataEnvelope(icsFeedSchema), ...errorResponses('SCHEDULE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE') },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createFeed(ctx, callerOf(request), request.params.id) }),
  );

  app.delete(
    PATH,
    {
      schema: {
        operationId: 'deleteIcsFeed',
        summary: "Remove the schedule's ICS feed: its URL is 404 from then on",
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(deletedIcsFeedSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteFeed(ctx, callerOf(request), request.params.id) }),
  );
}
