/** What a database constraint violation that Prisma reports is about. */
export interface ConstraintViolation {
  kind: 'unique' | 'foreign_key';
  constraint: string;
}

interface AdapterCause {
  originalCode?: string;
  originalMessage?: string;
  constraint?: { index?: string };
}

/**
 * Reads the violated constraint from a Prisma error raised through the pg driver adapter
 * (P2002 unique, P2003 foreign key; the adapter's cause carries the SQLSTATE and constraint name).
 */
export function constraintViolation(error: unknown): ConstraintViolation | null {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  if (!cause) return null;
  const kind = cause.originalCode === '23505' ? 'unique' : cause.originalCode === '23503' ? 'foreign_key' : null;
  if (!kind) return null;
  const constraint = cause.constraint?.index ?? /constraint "([^"]+)"/.exec(cause.originalMessage ?? '')?.[1] ?? '';
  return { kind, constraint };
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const violation = constraintViolation(error);
  return violation?.kind === 'unique' && violation.constraint === constraint;
}

export function isForeignKeyViolation(error: unknown): boolean {
  return constraintViolation(error)?.kind === 'foreign_key';
}
