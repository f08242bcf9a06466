import { createOrganization } from '../lib/target.mjs';
import { seedEvents } from '../scenarios/events.mjs';

const REGISTRATIONS_PER_EVENT = 2;

/**
 * GET /api/v1/events?limit=50&include_counts=true (the events scenario's request) for an organization of
 * `size` published events, each with 2 active registrations. Each size is an organization of its own, so the
 * larger ones list among the smaller ones' rows too.
 */
export default {
  name: 'events list vs. events per organization',
  x_label: 'events of the organization',
  sizes: [100, 1_000, 10_000, 100_000],
  async seed(ctx, size) {
    const organization = await createOrganization(ctx.baseUrl, `Growth events ${size}`);
    await seedEvents(ctx, organization.id, size, REGISTRATIONS_PER_EVENT);
    return { headers: organization.headers };
  },
  requests: () => [{ method: 'GET', path: '/api/v1/events?limit=50&include_counts=true' }],
};
