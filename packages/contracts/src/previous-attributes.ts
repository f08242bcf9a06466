import { z } from 'zod';

/**
 * `previous_attributes` of a change event (API.md, Change feed): the record's fields that the change altered, each with
 * its value before the change, `updated_at` aside (`{"status": "PENDING"}`, `{"start_time": …, "end_time": …}`). The
 * producer writes it beside `record`, from the record as it was and as it is; optional only for events written before
 * it was added (a rolling deploy), which the webhooks service reads from their `previous_*` fields where they have them.
 */
export const previousAttributesSchema = z
  .record(z.string(), z.unknown())
  .optional()
  .describe("The record's changed fields with their values before this change (updated_at aside)");

/** The fields a change's `previous_attributes` leaves out: they change with every change and say nothing of it. */
export const UNCOMPARED_FIELDS: readonly string[] = ['updated_at'];
