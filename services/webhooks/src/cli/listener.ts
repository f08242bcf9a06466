import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ListenerOptions {
  port: number;
  host?: string;
  secret: string;
  /** Answer 500 to every delivery, to watch the service retry. */
  fail?: boolean;
  /** Where lines go (the console in the command, a list in tests). */
  print: (line: string) => void;
}

export interface RunningListener {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A local webhook receiver for developers, like `stripe listen`: verifies each delivery's signature with the
 * Standard Webhooks verifier, prints it, and answers 204 (or 500 with `fail`); an unverifiable request gets a 400.
 */
export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const verifier = new Webhook(options.secret);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id'] ?? '-');
      try {
        const event = verifier.verify(body, request.headers as Record<string, string>) as { type?: string; data?: unknown };
        const status = options.fail ? 500 : 204;
        options.print(`✔ ${new Date().toISOString()} ${String(event.type)} webhook-id=${id} → ${status}`);
        options.print(JSON.stringify(event.data, null, 2));
        response.statusCode = status;
      } catch (error) {
        options.print(
          `✘ ${new Date().toISOString()} ${request.method ?? ''} ${request.url ?? ''} webhook-id=${id}: ${(error as Error).message} → 400`,
        );
        response.statusCode = 400;
      }
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
