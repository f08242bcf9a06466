import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1: keeps every request, and answers with the next status of `script` (then
 * `fallback`), so a test can make it fail a few times before it succeeds.
 */
export class Receiver {
  readonly received: ReceivedDelivery[] = [];
  private script: number[] = [];
  private fallback = 200;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.statusCode = receiver.script.shift() ?? receiver.fallback;
        response.end('receiver says hello');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Answers these statuses in turn, then `fallback`. */
  answer(statuses: number[], fallback = 200): void {
    this.script = [...statuses];
    this.fallback = fallback;
  }

  /** The deliveries of one event (by webhook-id). */
  of(eventId: string): ReceivedDelivery[] {
    return this.received.filter((delivery) => delivery.headers['webhook-id'] === eventId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
