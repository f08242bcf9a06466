import type { z } from 'zod';

/**
 * The record as the API's `GET` returns it right after the change: event-carried state, so a consumer that shows the
 * record (the webhooks service) never asks the producing service for it. Optional only for events written before it
 * was added (still in streams and outboxes during a rolling deploy): every producer writes it now.
 */
export function publicRecord<Record extends z.ZodType>(record: Record) {
  return record.optional().describe('The record as GET returns it after this change; absent only on events written before it was added');
}
