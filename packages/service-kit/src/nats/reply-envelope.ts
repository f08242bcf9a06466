import { headers as natsHeaders, type Msg } from '@nats-io/nats-core';
import { ServiceError, type ServiceMsg } from '@nats-io/services';
import { APP_ERROR_CODE_HEADER, errorCodeSchema, type RequestContract } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors.js';

// Both ends of the reply's wire format (APP_ERROR_CODE_HEADER in contracts documents it): the endpoint writes a
// reply or an AppError, the caller reads back the same.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function respondWithData(msg: ServiceMsg, data: unknown): void {
  msg.respond(encoder.encode(JSON.stringify(data)));
}

/** The AppError as the micro protocol's error (status and message) plus our code in a header of its own. */
export function respondWithError(msg: ServiceMsg, error: AppError): void {
  const headers = natsHeaders();
  headers.set(APP_ERROR_CODE_HEADER, error.code);
  // A header value cannot hold a line break (it would end the header); messages are one line anyway.
  msg.respondError(error.status, error.message.replace(/[\r\n]+/g, ' '), undefined, { headers });
}

/** The reply as its contract's output; an error reply is thrown as its AppError, anything unreadable as INTERNAL. */
export function readReply<Res extends z.ZodType>(
  reply: Msg,
  contract: RequestContract<z.ZodType, Res>,
  log: FastifyBaseLogger,
): z.output<Res> {
  const failure = ServiceError.toServiceError(reply);
  if (failure) {
    const code = errorCodeSchema.safeParse(reply.headers?.get(APP_ERROR_CODE_HEADER));
    if (code.success) throw new AppError(code.data, failure.message, failure.code);
  } else {
    const data = contract.reply.safeParse(parseJson(reply.data));
    if (data.success) return data.data;
  }
  log.error({ subject: contract.subject }, 'malformed NATS reply');
  throw new AppError('INTERNAL', 'Internal server error');
}

export function parseJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(data));
  } catch {
    return undefined;
  }
}
