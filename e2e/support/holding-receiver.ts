import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

interface Open {
  webhookId: string;
  response: ServerResponse;
}

/**
 * A slow webhook receiver on 127.0.0.1 that a test can freeze: each request is answered 204 after `delayMs`, unless
 * `hold()` was called, and then not until `resume()`. It records every request's webhook-id as it arrives, which are
 * open (received, unanswered), and the record id (`data.id`) of every body whose Standard Webhooks signature verifies.
 */
export class HoldingReceiver {
  /** The webhook-id of every request, in order of arrival (a retry appears again). */
  readonly arrivals: string[] = [];
  /** Webhook-ids answered 204. */
  readonly answered = new Set<string>();
  /** Record id (`data.id`) → webhook-id, of every delivery with a valid signature. */
  readonly verified = new Map<string, string>();
  /** What was wrong with a request: a bad signature, or a webhook-id other than the body's id. */
  readonly problems: string[] = [];
  /** Webhook-ids whose sender gave up (closed the connection) before the answer. */
  readonly abandoned: string[] = [];
  private readonly open = new Set<Open>();
  private readonly waiting = new Set<Open>();
  private holding = false;
  private verifier: Webhook | undefined;

  private constructor(
    private readonly server: Server,
    private delayMs: number,
  ) {
    server.on('request', (request, response) => {
      const entry = { webhookId: String(request.headers['webhook-id']), response };
      this.arrivals.push(entry.webhookId);
      this.open.add(entry);
      response.on('close', () => {
        if (!response.writableFinished) this.abandoned.push(entry.webhookId);
        this.open.delete(entry);
      });
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.check(request.headers, Buffer.concat(chunks).toString('utf8'));
        setTimeout(() => (this.holding ? this.waiting.add(entry) : this.answer(entry)), this.delayMs);
      });
    });
  }

  static async start(delayMs: number): Promise<HoldingReceiver> {
    const server = createServer();
    const receiver = new HoldingReceiver(server, delayMs);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Signatures are checked with this secret (the endpoint's). */
  trust(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  /** The webhook-ids of requests received and not yet answered. */
  openIds(): string[] {
    return [...this.open].map((entry) => entry.webhookId);
  }

  /** Answers nothing more until `resume()`. */
  hold(): void {
    this.holding = true;
  }

  /** Answers what was held, and from now on after `delayMs`. */
  resume(delayMs: number): void {
    this.holding = false;
    this.delayMs = delayMs;
    for (const entry of this.waiting) this.answer(entry);
    this.waiting.clear();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(entry: Open): void {
    if (entry.response.destroyed) return;
    this.answered.add(entry.webhookId);
    entry.response.writeHead(204).end();
  }

  private check(headers: IncomingHttpHeaders, body: string): void {
    try {
      if (!this.verifier) throw new Error('no secret trusted yet');
      const event = this.verifier.verify(body, headers as Record<string, string>) as { id: string; data: { id: string } };
      if (event.id !== headers['webhook-id']) throw new Error(`webhook-id ${headers['webhook-id']} is not the event id ${event.id}`);
      this.verified.set(event.data.id, event.id);
    } catch (error) {
      this.problems.push(error instanceof Error ? error.message : String(error));
    }
  }
}
