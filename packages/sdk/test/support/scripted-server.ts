import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** `performance.now()` when the request arrived. */
  at: number;
}

/**
 * A local HTTP server answering each request with the next scripted reply (the last one repeats), or with what a
 * responder function says; it records what it got.
 */
export class ScriptedServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly server: Server;
  private replies: Reply[] = [];
  private responder: ((request: ReceivedRequest) => Reply) | undefined;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) };
        this.requests.push({ ...received, at: performance.now() });
        const reply = this.responder ? this.responder({ ...received, at: performance.now() }) : this.nextReply();
        const { status, headers = {}, body = {} } = reply ?? { status: 500 };
        response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${this.requests.length}`, ...headers });
        response.end(JSON.stringify(body));
      });
    });
  }

  /** The replies to give, in order. */
  script(...replies: Reply[]): this {
    this.replies = replies;
    return this;
  }

  /** Answers every request with what `responder` returns. */
  respond(responder: (request: ReceivedRequest) => Reply): this {
    this.responder = responder;
    return this;
  }

  private nextReply(): Reply | undefined {
    return this.replies.length > 1 ? this.replies.shift() : this.replies[0];
  }

  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the server is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
