import { Writable } from 'node:stream';
import { createLogger } from '@app/service-kit';

/** A service's logger (at info) whose lines stay in `lines`, one JSON text each: for tests of what a log line keeps. */
export function capturedLog(service: string) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, log: createLogger({ LOG_LEVEL: 'info' }, service, sink) };
}
