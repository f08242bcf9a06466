import {
  calendarConnectionSchema,
  dataEnvelope,
  errorResponses,
  oauthAuthorizeQuerySchema,
  oauthAuthorizeResponseSchema,
  oauthCallbackQuerySchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { authorize, completeAuthorization } from '../use-cases/oauth.js';
import { callerOf, providerParamsSchema, TAGS } from './route-support.js';

export function registerOAuthRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/calendar-connections/oauth/:provider/authorize',
    {
      schema: {
        operationId: 'authorizeCalendar',
        summary: "The provider's consent URL (google or outlook); its callback stores the connection",
        tags: TAGS,
        params: providerParamsSchema,
        querystring: oauthAuthorizeQuerySchema,
        response: {
          200: dataEnvelope(oauthAuthorizeResponseSchema),
          ...errorResponses('NOT_FOUND', 'SCHEDULE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'),
        },
      },
    },
    async (request) => {
      const { schedule_id, calendar_ids } = request.query;
      const input = { scheduleId: schedule_id, calendarIds: calendar_ids ?? ['primary'] };
      return { data: await authorize(request.params.provider, input, callerOf(request), ctx) };
    },
  );

  // Public (the browser arrives here from the provider): the organization comes from the signed state.
  app.get(
    '/api/calendar-connections/oauth/:provider/callback',
    {
      schema: {
        operationId: 'completeCalendarAuthorization',
        summary: 'OAuth redirect target: exchanges the code and stores the connection',
        tags: TAGS,
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
      const connection = await completeAuthorization(request.params.provider, request.query, request.id, ctx);
      return reply.code(201).send({ data: connection });
    },
  );
}
