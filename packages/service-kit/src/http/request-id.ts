import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER } from '@app/contracts';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's `x-request-id` when it is a sane token, else makes one (used as Fastify's genReqId). */
export function requestIdFrom(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}
