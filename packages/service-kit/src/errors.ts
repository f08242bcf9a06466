import { ERROR_STATUS, type ErrorCode } from '@app/contracts';

/** The one error a use case throws; mapped to HTTP by the error handler and to NATS replies by the bus. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    status?: number,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status ?? ERROR_STATUS[code];
  }
}

/** A 400 VALIDATION_ERROR about one input field, with the `details` every validation error carries (API.md). */
export function invalidInput(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, undefined, [{ path, message }]);
}

export function notFound(what = 'Resource'): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The answer for an unknown, inactive, malformed or other organization's schedule: scheduling gives it for
 * slots and its NATS requests, and bookings gives the same when the schedule it asked about was not found.
 */
export function scheduleNotFound(): AppError {
  return new AppError('SCHEDULE_NOT_FOUND', 'Schedule not found or inactive');
}

/** The database could not serve a statement in time (no free pooled connection, a statement or lock timeout): 503. */
export function databaseBusy(): AppError {
  return new AppError('UPSTREAM_UNAVAILABLE', 'The database did not answer in time');
}

/** A PATCH or DELETE whose `If-Match` is not the record's current ETag (http/conditional-requests.ts): nothing was changed. */
export function preconditionFailed(): AppError {
  return new AppError('PRECONDITION_FAILED', "If-Match does not match the record's current ETag");
}
