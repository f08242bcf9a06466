import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '@app/contracts';

/** The limits every listener puts on its clients, so a slow or idle one cannot hold a connection open (`KIT_TUNING`). */
export interface HttpTimeouts {
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
}

/**
 * How often Node looks for requests past their timeouts (its default is 30 s, which would let a trickled body
 * run up to 30 s past the limit).
 */
const CHECK_INTERVAL_MS = 250;

/** Fastify's server options for these timeouts, with client errors answered in the error shape of API.md. */
export function serverOptions(timeouts: HttpTimeouts) {
  return {
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    http: { headersTimeout: headersTimeoutOf(timeouts), connectionsCheckingInterval: CHECK_INTERVAL_MS },
    clientErrorHandler,
  };
}

/** Sets the timeouts of a server already created (Node reads them at each check and on each new connection). */
export function applyHttpTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.requestTimeout = timeouts.requestTimeout;
  server.headersTimeout = headersTimeoutOf(timeouts);
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.setTimeout(timeouts.connectionTimeout);
}

/** Node refuses a headers timeout above the request timeout (a test may shorten the one alone). */
function headersTimeoutOf(timeouts: HttpTimeouts): number {
  return Math.min(timeouts.headersTimeout, timeouts.requestTimeout);
}

/**
 * Errors of a connection before Fastify has a request to answer: a request that did not arrive in time (408),
 * headers over Node's limit (431) or bytes that are not HTTP (400). Answered in the error shape of API.md when the
 * connection has sent nothing yet, then closed.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body]: [number, string, ErrorBody] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', { error: 'The request did not arrive within the time limit', code: 'REQUEST_TIMEOUT' }]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', { error: 'Request headers are too large', code: 'PAYLOAD_TOO_LARGE' }]
        : [400, 'Bad Request', { error: 'Malformed request', code: 'VALIDATION_ERROR' }];
  const json = JSON.stringify(body);
  // As Node does: answer only on a connection that has not answered yet (else a second response would follow the first).
  if (socket.writable && socket.bytesWritten === 0) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
