import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { formatLogLine } from './log-line.ts';

/** What the stack prints of its processes' lines: all of them readable, errors (and non-log lines) only, or nothing. */
export type StackOutput = 'pretty' | 'errors' | 'none';

const COLORS: Record<string, number> = {
  gateway: 36,
  bookings: 33,
  scheduling: 32,
  catalog: 35,
  events: 34,
  'calendar-sync': 31,
  webhooks: 91,
};

/** Prints the lines of a process's `streams` under its coloured `[name:port]` label, as `output` asks. */
export function printServiceOutput(name: string, port: number, streams: Readable[], output: StackOutput): void {
  const label = `\x1b[${COLORS[name] ?? 37}m[${name}${port ? `:${port}` : ''}]\x1b[0m`;
  for (const stream of streams) {
    const lines = createInterface({ input: stream });
    lines.on('line', (line) => {
      if (output === 'pretty') console.log(`${label} ${formatLogLine(line)}`);
      // Quiet mode still shows errors and anything that is not a log line (a startup failure).
      else if (output === 'errors' && (/"level":(5|6)0/.test(line) || !line.startsWith('{')))
        console.error(`${label} ${formatLogLine(line)}`);
    });
  }
}
