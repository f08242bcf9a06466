import { changesResponseSchema, errorResponses, listChangesQuerySchema } from '@app/contracts';
import { callerOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { listChanges } from '../use-cases/changes.use-case.js';

/** GET /api/v1/changes: the organization's change feed, with a long poll. */
export function registerChangeRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  // A closing service answers its waiting requests at once (an empty page), rather than after their `wait`.
  app.addHook('preClose', (done) => {
    ctx.feed.release();
    done();
  });

  app.get(
    '/api/v1/changes',
    {
      schema: {
        operationId: 'listChanges',
        summary: "The organization's changes, each once, in the order they committed",
        description:
          'Every public event of the organization (the webhook types but `webhook.test`), with the same `id`, `type`, ' +
          '`occurred_at` and `data` as its webhook, in one order across all services: a change whose request was answered ' +
          "before another's was sent comes first. Resume with an item's `cursor` (or `meta.next_cursor`) as `after`; " +
          'without it the feed starts at the oldest change kept (at least 30 days are kept). `wait` holds an empty answer ' +
          'open until a change arrives or the seconds are up.',
        tags: ['changes'],
        querystring: listChangesQuerySchema,
        response: { 200: changesResponseSchema, ...errorResponses('CURSOR_INVALID') },
      },
    },
    async (request, reply) => {
      // The client going away ends the wait (the socket closes before the answer is written).
      const abandoned = new AbortController();
      reply.raw.once('close', () => abandoned.abort());
      const { items, meta } = await listChanges(ctx, callerOf(request), { query: request.query, signal: abandoned.signal });
      return { data: items, meta };
    },
  );
}
