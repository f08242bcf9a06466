/**
 * SQL that renders a timestamptz `column` the way the API writes instants (UTC, milliseconds, `Z`, exactly
 * what Date#toISOString gives). Reads that only present rows use it: Node then neither parses nor re-formats
 * each timestamp, which was a tenth of a list request's CPU.
 */
export const isoInstantSql = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An instant as the API writes it, from a Date or from text that isoInstantSql already formatted. */
export const isoInstant = (instant: Date | string): string => (typeof instant === 'string' ? instant : instant.toISOString());
