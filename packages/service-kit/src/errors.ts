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

export function notFound(what = 'Resource'): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
