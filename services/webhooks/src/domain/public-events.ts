/** What a receiver gets: `{id, type, occurred_at, data}`, serialized once so every attempt signs the same bytes. */
export function deliveryBody(event: { id: string; type: string; occurred_at: string; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, occurred_at: event.occurred_at, data: event.data });
}
