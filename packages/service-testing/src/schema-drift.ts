import type pg from 'pg';

/** The part of Prisma's runtime data model the drift check reads (`Prisma.dmmf.datamodel`). */
export interface DataModel {
  models: readonly {
    name: string;
    dbName: string | null;
    fields: readonly { name: string; kind: string; dbName?: string | null; isRequired: boolean; isList: boolean }[];
  }[];
}

/** Tables owned by the kit's migrations, not mirrored in service Prisma schemas. */
const KIT_TABLES = new Set(['outbox', 'inbox', 'idempotency_records', 'migrations', 'kit_migrations']);

/**
 * Compares the Prisma models with the tables the migrations created in `schema`:
 * every table has a model and back, every column a field and back, with the same nullability.
 * Returns the differences (empty when they agree).
 */
export async function schemaDrift(pool: pg.Pool, schema: string, datamodel: DataModel): Promise<string[]> {
  const { rows } = await pool.query<{ table_name: string; column_name: string; is_nullable: string }>(
    `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = $1`,
    [schema],
  );
  const tables = new Map<string, Map<string, boolean>>();
  for (const row of rows) {
    if (KIT_TABLES.has(row.table_name)) continue;
    const columns = tables.get(row.table_name) ?? new Map<string, boolean>();
    columns.set(row.column_name, row.is_nullable === 'YES');
    tables.set(row.table_name, columns);
  }
  const problems: string[] = [];
  const modelled = new Set<string>();
  for (const model of datamodel.models) {
    const table = model.dbName ?? model.name;
    modelled.add(table);
    const columns = tables.get(table);
    if (!columns) {
      problems.push(`model ${model.name}: table ${schema}.${table} does not exist`);
      continue;
    }
    const fields = new Set<string>();
    for (const field of model.fields) {
      if (field.kind === 'object') continue;
      const column = field.dbName ?? field.name;
      fields.add(column);
      const nullable = columns.get(column);
      if (nullable === undefined) problems.push(`${model.name}.${field.name}: column ${table}.${column} does not exist`);
      else if (nullable === field.isRequired && !field.isList)
        problems.push(`${model.name}.${field.name}: nullability differs from ${table}.${column}`);
    }
    for (const column of columns.keys())
      if (!fields.has(column)) problems.push(`table ${table}: column ${column} has no field in ${model.name}`);
  }
  for (const table of tables.keys()) if (!modelled.has(table)) problems.push(`table ${schema}.${table} has no Prisma model`);
  return problems;
}
