import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * How long browsers and CDNs may keep the widget without asking again. A day: long enough that a booking page costs
 * the gateway one request per visitor per day, short enough that a fix reaches every page by the next day. After
 * that the ETag makes the check a 304.
 */
const WIDGET_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

interface Bundle {
  body: Buffer;
  etag: string;
}

/** The built widget (packages/booking-widget, dist/booking.js), read once at boot. Undefined when it was not built. */
async function loadBundle(log: FastifyBaseLogger): Promise<Bundle | undefined> {
  try {
    const path = fileURLToPath(import.meta.resolve('@app/booking-widget/booking.js'));
    const body = await readFile(path);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
  } catch (error) {
    log.warn({ err: error }, 'the booking widget is not built: /widget/booking.js answers 503 (npm run build)');
    return undefined;
  }
}

const demoQuery = z.object({
  key: z.string().regex(/^pk_[A-Za-z0-9_-]{1,200}$/, 'key must be a publishable key (pk_…)'),
  schedule: z.uuid('schedule must be a schedule id'),
});

/**
 * `GET /widget/booking.js`: the embeddable `<booking-widget>` (API.md, Keys), public and cacheable, readable from any
 * origin (a module script is fetched with CORS, and `integrity` needs it too). In development and test only,
 * `GET /widget/demo?key=pk_…&schedule=<id>`: a page that embeds it, for trying a key and a public schedule.
 */
export async function registerBookingWidget(app: FastifyInstance, options: { demo: boolean }): Promise<void> {
  const bundle = await loadBundle(app.log);
  app.get('/widget/booking.js', { schema: { hide: true } }, async (request, reply) => {
    if (!bundle) {
      return reply.code(503).send({ error: 'The booking widget is not built', code: 'UPSTREAM_UNAVAILABLE' });
    }
    void reply
      .header('cache-control', WIDGET_CACHE_CONTROL)
      .header('etag', bundle.etag)
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff');
    if (ifNoneMatch(request.headers['if-none-match'], bundle.etag)) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(bundle.body);
  });
  if (!options.demo) return;
  app.get('/widget/demo', { schema: { hide: true } }, async (request, reply) => {
    const query = demoQuery.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      const path = issue?.path.join('.') ?? 'query';
      return reply.code(400).send({
        error: issue?.message ?? 'query is invalid',
        code: 'VALIDATION_ERROR',
        details: query.error.issues.map((each) => ({ path: each.path.join('.') || path, message: each.message })),
      });
    }
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(demoPage(query.data.key, query.data.schedule));
  });
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

/** The demo page: the widget on the gateway's own origin (`api` is set from the page's address). Values are validated above. */
function demoPage(key: string, schedule: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Booking widget demo</title>
<script type="module" src="/widget/booking.js"></script>
</head>
<body>
<main>
<h1>Booking widget demo</h1>
<booking-widget publishable-key="${key}" schedule-id="${schedule}"></booking-widget>
</main>
<script type="module">document.querySelector('booking-widget').setAttribute('api', location.origin);</script>
</body>
</html>
`;
}
