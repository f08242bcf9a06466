import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A response the fake is told to give instead of its normal answer (429, 5xx, …). */
export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Close the socket without answering (a network error). */
  hangUp?: boolean;
}

export interface RecordedRequest {
  route: string;
  method: string;
  url: string;
  authorization: string | undefined;
  prefer: string | undefined;
  body: string;
  /** Epoch ms when it arrived. */
  at: number;
}

export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FakeReply = { status: number; body: unknown; headers?: Record<string, string> };
export type Handler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

/** A tiny HTTP server: routes by method + path pattern, records requests, and plays scripted failures first. */
export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private readonly scripts = new Map<string, ScriptedResponse[]>();
  private readonly routes: { name: string; method: string; pattern: RegExp; handler: Handler }[] = [];
  private server: Server | undefined;
  url = '';

  route(name: string, method: string, pattern: RegExp, handler: Handler): void {
    this.routes.push({ name, method, pattern, handler });
  }

  /** The next answers of `route`, before it answers normally again. */
  script(route: string, ...responses: ScriptedResponse[]): void {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...responses]);
  }

  requestsTo(route: string): RecordedRequest[] {
    return this.requests.filter((r) => r.route === route);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const route = this.routes.find((r) => r.method === req.method && r.pattern.test(url.pathname));
    const name = route?.name ?? 'unknown';
    this.requests.push({
      route: name,
      method: req.method ?? '',
      url: url.toString(),
      authorization: req.headers.authorization,
      prefer: typeof req.headers.prefer === 'string' ? req.headers.prefer : undefined,
      body,
      at: Date.now(),
    });
    const scripted = this.scripts.get(name)?.shift();
    if (scripted?.hangUp) {
      req.socket.destroy();
      return;
    }
    const reply =
      scripted ??
      (route
        ? await route.handler({ method: req.method ?? '', url, headers: req.headers, body })
        : { status: 404, body: { error: 'no route' } });
    res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
    res.end(JSON.stringify(reply.body ?? {}));
  }
}
