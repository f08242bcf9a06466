import type { Service, ServiceMsg } from '@nats-io/services';
import { REQUEST_ID_HEADER, type RequestContract } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { isDatabaseBusy } from '../db/pg-errors.js';
import { AppError, databaseBusy } from '../errors.js';
import { inSpan, markActiveSpanFailed, natsAttributes, SpanKind } from '../telemetry/spans.js';
import { contextOfHeaders } from '../telemetry/trace-context.js';
import { parseJson, respondWithData, respondWithError } from './reply-envelope.js';

/** Answers one request contract: gets the validated request and the caller's request id. */
export type RequestHandler<Req extends z.ZodType, Res extends z.ZodType> = (
  request: z.output<Req>,
  requestId: string | undefined,
) => Promise<z.input<Res>>;

/**
 * Adds `contract` to the service's micro service as an endpoint listening on `subject` (the contract's subject
 * with the bus prefix), in the micro service's queue group.
 */
export function addEndpoint<Req extends z.ZodType, Res extends z.ZodType>(
  service: Service,
  subject: string,
  contract: RequestContract<Req, Res>,
  handler: RequestHandler<Req, Res>,
  log: FastifyBaseLogger,
): void {
  // Endpoint names are single tokens in the micro protocol: `scheduling.schedule.get` → `scheduling-schedule-get`.
  service.addEndpoint(contract.subject.replace(/[^-\w]/g, '-'), {
    subject,
    handler: (error, msg) => {
      if (error) return log.error({ err: error, subject: contract.subject }, 'NATS endpoint error');
      // A SERVER span, child of the caller's CLIENT span (its traceparent header): what the handler does nests in it.
      const span = { kind: SpanKind.SERVER, attributes: natsAttributes(contract.subject), parent: contextOfHeaders(msg.headers) };
      void inSpan(contract.subject, span, () => answer(contract, handler, msg, log));
    },
  });
}

async function answer<Req extends z.ZodType, Res extends z.ZodType>(
  contract: RequestContract<Req, Res>,
  handler: RequestHandler<Req, Res>,
  msg: ServiceMsg,
  log: FastifyBaseLogger,
): Promise<void> {
  const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
  try {
    const request = contract.request.safeParse(parseJson(msg.data));
    if (!request.success) throw new AppError('VALIDATION_ERROR', `Malformed ${contract.subject} request`);
    respondWithData(msg, contract.reply.parse(await handler(request.data, requestId)));
  } catch (error) {
    if (error instanceof AppError) return respondWithError(msg, error);
    if (isDatabaseBusy(error)) {
      log.warn({ err: error, subject: contract.subject, request_id: requestId }, 'database busy');
      return respondWithError(msg, databaseBusy());
    }
    // The caller learns only that it failed; what failed stays in this service's log (and its span).
    markActiveSpanFailed(error);
    log.error({ err: error, subject: contract.subject, request_id: requestId }, 'NATS handler failed');
    respondWithError(msg, new AppError('INTERNAL', 'Internal server error', 500));
  }
}
