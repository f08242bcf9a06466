/**
 * What a receiver gets: `{id, type, occurred_at, data}`, and `previous_attributes` beside `data` for the updates that
 * carry it, serialized once so every attempt signs the same bytes.
 */
export function deliveryBody(event: {
  id: string;
  type: string;
  occurred_at: string;
  data: unknown;
  previous_attributes?: Record<string, unknown> | undefined;
}): string {
  const { id, type, occurred_at, data, previous_attributes } = event;
  return JSON.stringify({ id, type, occurred_at, data, ...(previous_attributes && { previous_attributes }) });
}
