import { eventTypeGetRequest } from '@app/contracts';
import type { Bus } from '@app/service-kit';

/** The events service over NATS: an event type the organization does not have is its 404. */
export class EventsClient {
  constructor(private readonly bus: Bus) {}

  /** `events.event_type.get`: resolves when the organization has the event type, else throws the events service's error. */
  async requireEventType(organizationId: string, eventTypeId: string, requestId?: string): Promise<void> {
    await this.bus.request(eventTypeGetRequest, { organization_id: organizationId, event_type_id: eventTypeId }, requestId);
  }
}
