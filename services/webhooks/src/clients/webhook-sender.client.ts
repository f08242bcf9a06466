import { Agent, request } from 'undici';
import { capError } from '../domain/retry-policy.js';
import { guardedLookup, refusedLiteral, type Resolve, type TargetPolicy } from '@app/service-kit';

/** The outcome of one attempt: the receiver's status (null when none came) and what went wrong, if anything. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface SenderSettings {
  timeoutMs: number;
  policy: TargetPolicy;
  resolve: Resolve;
  /** Connections kept per receiver origin: the per-endpoint concurrency. */
  connectionsPerOrigin: number;
}

/** A receiver's body is read only to free the connection, and never kept: at most this much of it. */
const DISCARD_LIMIT = 64 * 1024;

/**
 * Sends signed POSTs over one undici agent whose connections resolve through the guarded lookup. Redirects are
 * not followed (undici's `request` never does): a 3xx is a failed attempt like any other non-2xx.
 */
export class WebhookSender {
  private closed: Promise<void> | undefined;
  private readonly agent: Agent;

  constructor(private readonly settings: SenderSettings) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(settings.resolve, settings.policy), timeout: settings.timeoutMs },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
      connections: settings.connectionsPerOrigin,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string, stopping: AbortSignal): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const refused = refusedLiteral(target, this.settings.policy);
    if (refused) return { ok: false, status: null, error: capError(refused.message), durationMs: 0 };
    try {
      const response = await request(target, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), stopping]),
      });
      await response.body.dump({ limit: DISCARD_LIMIT }).catch(() => undefined);
      const status = response.statusCode;
      const ok = status >= 200 && status < 300;
      const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
      return { ok, status, error, durationMs: elapsed() };
    } catch (error) {
      return { ok: false, status: null, error: capError(describe(error, this.settings.timeoutMs)), durationMs: elapsed() };
    }
  }

  /** Closes its connections, once: a loop stopped again (a test stops it early, then the service) closes nothing more. */
  close(): Promise<void> {
    this.closed ??= this.agent.close();
    return this.closed;
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || /timeout/i.test(error.name))) return `No response within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}
