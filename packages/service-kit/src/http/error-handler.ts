import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { discardBody, hasUnreadBody } from './unread-body.js';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { INTERNAL_ERROR_BODY, REQUEST_ID_HEADER, type ErrorBody } from '@app/contracts';
import { isDatabaseBusy, isUnstorableValue } from '../db/pg-errors.js';
import { AppError, databaseBusy } from '../errors.js';
import { isTransientError } from '../transient-errors.js';

interface Issue {
  path: string;
  message: string;
}

function valueAt(root: unknown, segments: string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Turns zod issues into `{path, message}` with messages that name the field: `title is required`. */
function describeIssues(
  error: FastifyError & { validation: { instancePath: string; message?: string }[] },
  request: FastifyRequest,
): Issue[] {
  const source = { body: request.body, querystring: request.query, params: request.params, headers: request.headers }[
    (error.validationContext ?? 'body') as 'body'
  ];
  const issues = error.validation.map((issue) => {
    const segments = issue.instancePath.split('/').filter(Boolean);
    const path = segments.join('.') || (error.validationContext === 'body' ? 'body' : 'query');
    const missing = segments.length > 0 && valueAt(source, segments) === undefined;
    const message = missing
      ? `${path} is required`
      : `${path} ${issue.message ?? 'is invalid'}`.replace(/ Invalid input: /, ' is invalid: ');
    return { path, message };
  });
  // Several checks of one field can fail with one message (a format and a refinement): say it once.
  return issues.filter((issue, index) => issues.findIndex((other) => other.message === issue.message) === index);
}

function send(reply: FastifyReply, status: number, body: ErrorBody): void {
  const request = reply.request.raw;
  if (!hasUnreadBody(request)) {
    void reply.code(status).send(body);
    return;
  }
  // A refusal decided before the body has arrived (a 401, a 413, a bad first field of an upload) would be lost by a
  // client still sending it: the socket closes under it (Node's fetch fails with EPIPE). So the rest of the body is
  // read and discarded first, within limits; only a body past them gets the answer with the connection closed.
  void discardBody(request).then((complete) => {
    if (!complete) void reply.header('connection', 'close');
    void reply.code(status).send(body);
  });
}

/** The single mapping from anything thrown in a route to the error bodies of API.md. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = describeIssues(error, request);
    return send(reply, 400, { error: details[0]?.message ?? 'Invalid request', code: 'VALIDATION_ERROR', details });
  }
  if (error instanceof AppError) {
    const body: ErrorBody = { error: error.message, code: error.code };
    if (error.details) body.details = error.details;
    // Both are passing: the client may try again in a second (SDKs and proxies honour Retry-After), unless the
    // thrower knows better and set it.
    if ((error.code === 'RATE_LIMITED' || error.code === 'UPSTREAM_UNAVAILABLE') && !reply.hasHeader('retry-after'))
      void reply.header('retry-after', '1');
    return send(reply, error.status, body);
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return send(reply, 413, { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
    return send(reply, 415, { error: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
  }
  // The gateway's @fastify/rate-limit throws its errorResponseBuilder's plain object (statusCode 429), not an AppError.
  if (error.statusCode === 429) {
    return send(reply, 429, { error: 'Too many requests', code: 'RATE_LIMITED' });
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own client errors (malformed JSON, empty body with a JSON content type, bad headers).
    const message = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'body is required' : 'Malformed request';
    return send(reply, 400, { error: message, code: 'VALIDATION_ERROR', details: [{ path: 'body', message: error.message }] });
  }
  // Judged by the client's own socket: not `request.raw.destroyed` (already true once a body has been read)
  // and not an error code like ECONNRESET (a database or NATS socket reset carries it too — a server fault).
  if (request.raw.socket?.destroyed === true || error.code === 'UND_ERR_ABORTED') {
    // The client went away mid-request (a load generator stopping, a closed tab): nothing to answer, nothing broken.
    request.log.info({ err: error }, 'client closed the connection');
    return send(reply, 400, { error: 'Client closed the connection', code: 'VALIDATION_ERROR' });
  }
  if (isDatabaseBusy(error)) {
    // Every pooled connection busy, or a statement or lock wait past the role's timeout: overload, not a fault.
    request.log.warn({ err: error }, 'database busy');
    return errorHandler(databaseBusy() as unknown as FastifyError, request, reply);
  }
  if (isTransientError(error)) {
    // Not now rather than never: a connection lost under the statement (a primary killed, a failover under way), a
    // server refusing connections, NATS away, a deadlock victim. Found by the failover test: such a request was a 500.
    request.log.warn({ err: error }, 'a dependency is unavailable');
    return errorHandler(
      new AppError('UPSTREAM_UNAVAILABLE', 'A service this request needs is unavailable; retry shortly') as unknown as FastifyError,
      request,
      reply,
    );
  }
  if (isUnstorableValue(error)) {
    // The last line of defence: the request's schema should have refused this value before any statement ran.
    request.log.warn({ err: error }, 'database refused a value of the request');
    return send(reply, 400, { error: 'The request holds a value that cannot be stored', code: 'VALIDATION_ERROR' });
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, INTERNAL_ERROR_BODY);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  send(reply, 404, { error: `Route ${request.method} ${request.url.split('?')[0] ?? ''} not found`, code: 'NOT_FOUND' });
}

/**
 * Errors Fastify's router raises before any hook runs: a path segment that is not valid percent-encoding,
 * or a parameter longer than the router takes. Such a path names no record: 404 like a malformed id
 * (API.md), in the error shape, with the request id every response carries.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code !== 'FST_ERR_BAD_URL' && error.code !== 'FST_ERR_MAX_PARAM_LENGTH') return errorHandler(error, request, reply);
  void reply.header(REQUEST_ID_HEADER, request.id);
  send(reply, 404, { error: 'Not found', code: 'NOT_FOUND' });
}
