import type { CategoryRecord } from '@app/contracts';
import { isoInstant } from '@app/service-kit';

/** The fields of a category row its record shows. */
export interface CategoryRecordSource {
  id: string;
  name: string;
  slug: string;
  parentId: string | null;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A category as the API shows it and as its change events carry it. */
export function categoryRecord(row: CategoryRecordSource): CategoryRecord {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    parent_id: row.parentId,
    description: row.description,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstant(row.updatedAt),
  };
}
