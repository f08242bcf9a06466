import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingPage {
  /** `http://localhost:<port>`: another origin than the gateway's `http://127.0.0.1:<port>`. */
  origin: string;
  /** The page embedding the widget for this key and schedule. */
  url(publishableKey: string, scheduleId: string): string;
  close(): Promise<void>;
}

/**
 * A booking page of a shop on its own origin: HTML that loads the widget from the gateway, as an embedder would
 * (module script, `integrity` and `crossorigin`), and sets its attributes. Listens on 127.0.0.1; the browser calls it
 * `localhost`, an origin a publishable key may list (`http://localhost[:port]`).
 */
export async function serveEmbeddingPage(options: { gatewayUrl: string; integrity: string }): Promise<EmbeddingPage> {
  const html = (publishableKey: string, scheduleId: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Book a consultation</title>
<script type="module" src="${options.gatewayUrl}/widget/booking.js" integrity="${options.integrity}" crossorigin="anonymous"></script>
<style>booking-widget { --booking-widget-accent: #0f5132; }</style>
</head>
<body>
<main>
<h1>Book a consultation</h1>
<booking-widget api="${options.gatewayUrl}" publishable-key="${publishableKey}" schedule-id="${scheduleId}"></booking-widget>
</main>
</body>
</html>`;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const key = url.searchParams.get('key') ?? '';
    const schedule = url.searchParams.get('schedule') ?? '';
    // Only what the tests pass: nothing else reaches the HTML.
    if (url.pathname !== '/' || !/^pk_[\w-]+$/.test(key) || !/^[\da-f-]{36}$/.test(schedule)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(key, schedule));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  return {
    origin,
    url: (key, schedule) => `${origin}/?key=${encodeURIComponent(key)}&schedule=${schedule}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
