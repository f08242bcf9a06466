import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as it arrived: its headers, its body as sent, and when (performance.now()). */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook endpoint on 127.0.0.1 that answers 204 to everything and keeps every delivery, in arrival order. */
export class WebhookReceiver {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly received: ReceivedDelivery[],
    private readonly firstArrival: Map<string, number>,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const received: ReceivedDelivery[] = [];
    // By the id of the record each carries: a burst's thousands are looked up without a scan each.
    const firstArrival = new Map<string, number>();
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
        received.push(delivery);
        const id = (JSON.parse(delivery.body) as { data?: { id?: unknown } }).data?.id;
        if (typeof id === 'string' && !firstArrival.has(id)) firstArrival.set(id, delivery.at);
        response.statusCode = 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, firstArrival);
  }

  /** When the delivery of the record `id` first arrived, or undefined while none has. */
  arrivalOf(id: string): number | undefined {
    return this.firstArrival.get(id);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
