/** A pino JSON line, with the fields the readable form picks out. */
interface LogEntry {
  time?: string;
  level?: number | string;
  msg?: string;
  request_id?: string;
  service?: string;
  err?: { type?: string; message?: string; stack?: string };
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
  [field: string]: unknown;
}

const LEVELS: Record<string, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One readable line from a pino JSON line: time, level, message, request id and the interesting fields. */
export function formatLogLine(line: string): string {
  const entry = parseEntry(line);
  if (!entry) return line;
  const { time, level, msg, request_id: requestId, service: _service, err, method, url, status, ms, ...rest } = entry;
  const parts = [String(time ?? '').slice(11, 19), String(LEVELS[String(level)] ?? level).padEnd(5), msg];
  if (method) parts.push(`${method} ${url} ${status} ${ms}ms`);
  if (requestId) parts.push(`req=${String(requestId).slice(0, 8)}`);
  const extra = Object.keys(rest).length ? JSON.stringify(rest) : '';
  if (extra && !method) parts.push(extra);
  if (err) parts.push(`\n    ${err.type}: ${err.message}${err.stack ? `\n${err.stack.split('\n').slice(1, 4).join('\n')}` : ''}`);
  return parts.join(' ');
}

/** The line as a log entry; undefined for anything but a JSON object (a startup failure, a stack trace). */
function parseEntry(line: string): LogEntry | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as LogEntry) : undefined;
  } catch {
    return undefined;
  }
}
