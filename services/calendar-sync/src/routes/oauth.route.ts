import {
  calendarConnectionSchema,
  dataEnvelope,
  errorResponses,
  oauthAuthorizeQuerySchema,
  oauthAuthorizeResponseSchema,
  oauthCallbackQuerySchema,
} from '@app/contracts';
import { callerOf, type ServiceApp } from '@app/service-kit';
import { z } from 'zod';
import type { UseCaseContext } from '../use-cases/context.js';
import { authorize, completeAuthorization } from '../use-cases/oauth.use-case.js';

const tags = ['calendar-connections'];
/** Any string: an unknown provider is a 404, never a 400. */
const providerParamsSchema = z.object({ provider: z.string() });

/** The OAuth flow that connects a calendar: the consent URL, and the provider's redirect back. */
export function registerOAuthRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/calendar-connections/oauth/:provider/authorize',
    {
      schema: {
        operationId: 'authorizeCalendar',
        summary: "The provider's consent URL (google or outlook); its callback stores the connection",
        tags,
        params: providerParamsSchema,
        querystring: oauthAuthorizeQuerySchema,
        response: {
          200: dataEnvelope(oauthAuthorizeResponseSchema),
          ...errorResponses('NOT_FOUND', 'SCHEDULE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'),
        },
      },
    },
    async (request) => {
      const { schedule_id, calendar_ids, write_calendar_id } = request.query;
      const input = {
        provider: request.params.provider,
        scheduleId: schedule_id,
        calendarIds: calendar_ids ?? ['primary'],
        writeCalendarId: write_calendar_id ?? null,
      };
      return { data: await authorize(ctx, callerOf(request), input) };
    },
  );

  // Public (the browser arrives here from the provider): the organization comes from the signed state.
  app.get(
    '/api/calendar-connections/oauth/:provider/callback',
    {
      schema: {
        operationId: 'completeCalendarAuthorization',
        summary: 'OAuth redirect target: exchanges the code and stores the connection',
        tags,
        security: [],
        params: providerParamsSchema,
        querystring: oauthCallbackQuerySchema,
        response: {
          201: dataEnvelope(calendarConnectionSchema),
          ...errorResponses('NOT_FOUND', 'SCHEDULE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const input = { provider: request.params.provider, callback: request.query, requestId: request.id };
      const connection = await completeAuthorization(ctx, input);
      return reply.code(201).send({ data: connection });
    },
  );
}
