import { createReservationBodySchema, dataEnvelope, errorResponses, reservationSchema } from '@app/contracts';
import { callerOf, idParamsSchema, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { commitReservation, createReservation, getReservation, releaseReservation } from '../use-cases/reservations.use-case.js';

const tags = ['inventory'];

/** /api/v1/inventory/reservations: stock held for a checkout, all items or none, until committed, released or expired. */
export function registerReservationRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/inventory/reservations',
    {
      schema: {
        operationId: 'createInventoryReservation',
        summary: 'Reserve stock of several items, all or none',
        tags,
        body: createReservationBodySchema,
        response: { 201: dataEnvelope(reservationSchema), ...errorResponses('NOT_FOUND', 'OUT_OF_STOCK') },
      },
    },
    async (request, reply) => {
      const data = await createReservation(ctx, callerOf(request), request.body);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/inventory/reservations/:id',
    {
      schema: {
        operationId: 'getInventoryReservation',
        summary: 'Get a reservation (`expired` as soon as its expires_at has passed)',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(reservationSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await getReservation(ctx, callerOf(request), request.params.id) }),
  );

  app.post(
    '/api/v1/inventory/reservations/:id/commit',
    {
      schema: {
        operationId: 'commitInventoryReservation',
        summary: 'Take the reserved stock for good',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(reservationSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
    },
    async (request) => ({ data: await commitReservation(ctx, callerOf(request), request.params.id) }),
  );

  app.delete(
    '/api/v1/inventory/reservations/:id',
    {
      schema: {
        operationId: 'releaseInventoryReservation',
        summary: 'Release the reserved stock',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(reservationSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
    },
    async (request) => ({ data: await releaseReservation(ctx, callerOf(request), request.params.id) }),
  );
}
