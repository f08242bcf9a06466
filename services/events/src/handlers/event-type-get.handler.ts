import { eventTypeGetRequest } from '@app/contracts';
import type { Bus } from '@app/service-kit';
import { findEventType } from '../db/event-type.repository.js';
import { presentEventType } from '../routes/presenters.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { notFoundError, requireId } from '../use-cases/context.js';

/**
 * `events.event_type.get`: the bookings service checks a booking's event type. Answers the event type
 * of that organization whether active or not; anything else (another organization's, unknown, a
 * malformed id) is NOT_FOUND.
 */
export async function serveEventTypeGet(bus: Bus, ctx: UseCaseContext): Promise<void> {
  await bus.serve(eventTypeGetRequest, async (request) => {
    requireId(request.event_type_id, 'Event type');
    const eventType = await findEventType(ctx.prisma, request.organization_id, request.event_type_id);
    if (!eventType) throw notFoundError('Event type');
    const { id, title, slug, duration, location_type, requires_approval, is_active } = presentEventType(eventType);
    return { id, title, slug, duration, location_type, requires_approval, is_active };
  });
}
