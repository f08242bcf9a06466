import { pino, type Logger } from 'pino';
import type { BaseConfig } from '../config.js';

/** One pino logger per process, tagged with the service; Fastify adds the request id to every request's lines. */
export function createLogger(config: Pick<BaseConfig, 'LOG_LEVEL'>, service: string): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: ['req.headers.authorization', 'headers.authorization', '*.access_token', '*.refresh_token'],
  });
}
