import { z } from 'zod';
import {
  checkInRecordSchema,
  createCheckInBodySchema,
  dataEnvelope,
  errorResponses,
  ifMatchHeadersSchema,
  registrationRecordSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import { checkIn, undoCheckIn } from '../use-cases/check-ins.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

/** Any strings: a malformed id is a 404 like an unknown one, never a 400. */
const registrationParamsSchema = z.object({ id: z.string(), registrationId: z.string() });

const tags = ['events'];

/** /api/v1/events/{id}/check-ins: tickets scanned at the door, and their undo. */
export function registerCheckInRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/events/:id/check-ins',
    {
      schema: {
        operationId: 'createCheckIn',
        summary: 'Check a ticket in at the door by its code (once: a second scan is refused with the first time)',
        tags,
        params: idParamsSchema,
        body: createCheckInBodySchema,
        response: {
          201: dataEnvelope(checkInRecordSchema),
          ...errorResponses('NOT_FOUND', 'EVENT_NOT_OPEN', 'NOT_CHECKABLE', 'ALREADY_CHECKED_IN'),
        },
      },
    },
    async (request, reply) => {
      const checkedIn = await checkIn(ctx, callerOf(request), { eventId: request.params.id, ticketCode: request.body.ticket_code });
      void reply.code(201);
      return { data: checkedIn };
    },
  );

  app.delete(
    '/api/v1/events/:id/registrations/:registrationId/check-in',
    {
      schema: {
        operationId: 'undoCheckIn',
        summary: 'Undo a check-in (idempotent: a registration not checked in is answered unchanged)',
        tags,
        params: registrationParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { id, registrationId } = request.params;
      const registration = await undoCheckIn(ctx, callerOf(request), { eventId: id, id: registrationId, ifMatch: ifMatchOf(request) });
      return answerRecord(request, reply, registration);
    },
  );
}
