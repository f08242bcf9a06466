import { eventTypeGetRequest } from '@app/contracts';
import { messageCallerOf, type Bus } from '@app/service-kit';
import type { UseCaseContext } from './use-cases/context.js';
import { getEventType } from './use-cases/event-types.use-case.js';

/** `events.event_type.get`: the bookings service checks a booking's event type (the fields a booking needs). */
export async function serveEventTypeGet(bus: Bus, ctx: UseCaseContext): Promise<void> {
  await bus.serve(eventTypeGetRequest, async (request, requestId) => {
    const eventType = await getEventType(ctx, messageCallerOf(request.organization_id, requestId), request.event_type_id);
    const { id, title, slug, duration, location_type, requires_approval, is_active } = eventType;
    return { id, title, slug, duration, location_type, requires_approval, is_active };
  });
}
