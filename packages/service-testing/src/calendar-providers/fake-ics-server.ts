import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received, with the validators it carried. */
export interface IcsRequest {
  path: string;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
  /** What the server answered. */
  status: number;
}

type Route =
  | { kind: 'feed'; text: string; etag: string | null; lastModified: string | null }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'oversize'; bytes: number; declareLength: boolean }
  | { kind: 'status'; status: number };

/**
 * An ICS file server for tests: serves given iCalendar text per path with `ETag` and `Last-Modified` (answering 304 to a
 * matching `If-None-Match` / `If-Modified-Since`), redirects, bodies larger than a limit, or a status; counts requests.
 */
export class FakeIcsServer {
  readonly requests: IcsRequest[] = [];
  private readonly routes = new Map<string, Route>();
  private server: Server | undefined;
  private versions = 0;
  url = '';

  /** Serves `text` at `path` as a new version: a new ETag and Last-Modified (unless given; `null` leaves one out). */
  serve(path: string, text: string, validators: { etag?: string | null; lastModified?: string | null } = {}): string {
    this.versions += 1;
    // Last-Modified has whole seconds: a new version is a second later than any before, so If-Modified-Since tells them apart.
    const modified = new Date(Math.floor(Date.now() / 1000) * 1000 + this.versions * 1000).toUTCString();
    this.routes.set(path, {
      kind: 'feed',
      text,
      etag: validators.etag === undefined ? `"v${this.versions}"` : validators.etag,
      lastModified: validators.lastModified === undefined ? modified : validators.lastModified,
    });
    return this.urlOf(path);
  }

  /** Answers `path` with a redirect to `location` (absolute, or relative to this server). */
  redirect(path: string, location: string, status = 302): string {
    this.routes.set(path, { kind: 'redirect', status, location });
    return this.urlOf(path);
  }

  /** Streams `bytes` bytes of a VCALENDAR at `path`, with or without a Content-Length that says so. */
  oversize(path: string, bytes: number, declareLength = false): string {
    this.routes.set(path, { kind: 'oversize', bytes, declareLength });
    return this.urlOf(path);
  }

  /** Answers `path` with a bare status (404, 500 …). */
  status(path: string, status: number): string {
    this.routes.set(path, { kind: 'status', status });
    return this.urlOf(path);
  }

  urlOf(path: string): string {
    return `${this.url}${path}`;
  }

  requestsTo(path: string): IcsRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const route = this.routes.get(path) ?? { kind: 'status', status: 404 };
    const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
    const status = this.answer(route, header('if-none-match'), header('if-modified-since'), res);
    this.requests.push({ path, ifNoneMatch: header('if-none-match'), ifModifiedSince: header('if-modified-since'), status });
  }

  private answer(route: Route, ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, res: ServerResponse): number {
    switch (route.kind) {
      case 'feed': {
        const headers: Record<string, string> = { 'content-type': 'text/calendar; charset=utf-8' };
        if (route.etag) headers.etag = route.etag;
        if (route.lastModified) headers['last-modified'] = route.lastModified;
        // RFC 9110: If-None-Match decides when present; If-Modified-Since only without it.
        const notModified =
          ifNoneMatch !== undefined
            ? route.etag !== null && ifNoneMatch === route.etag
            : ifModifiedSince !== undefined && route.lastModified !== null && Date.parse(ifModifiedSince) >= Date.parse(route.lastModified);
        res.writeHead(notModified ? 304 : 200, headers);
        res.end(notModified ? undefined : route.text);
        return notModified ? 304 : 200;
      }
      case 'redirect':
        res.writeHead(route.status, { location: route.location });
        res.end();
        return route.status;
      case 'oversize':
        this.streamOversize(route.bytes, route.declareLength, res);
        return 200;
      case 'status':
        res.writeHead(route.status, { 'content-type': 'text/plain' });
        res.end(`HTTP ${route.status}`);
        return route.status;
    }
  }

  /** A real VCALENDAR that just goes on: padding lines of 64 KiB until `bytes`, written as the client reads. */
  private streamOversize(bytes: number, declareLength: boolean, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/calendar', ...(declareLength ? { 'content-length': String(bytes) } : {}) });
    const chunk = `X-PAD:${'x'.repeat(64 * 1024 - 8)}\r\n`;
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const piece = sent === 0 ? `BEGIN:VCALENDAR\r\n${chunk}`.slice(0, bytes) : chunk.slice(0, bytes - sent);
        sent += Buffer.byteLength(piece);
        if (!res.write(piece)) {
          res.once('drain', write);
          return;
        }
      }
      res.end();
    };
    res.on('close', () => (sent = bytes));
    write();
  }
}
