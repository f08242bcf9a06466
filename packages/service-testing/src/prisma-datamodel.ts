import { readFileSync } from 'node:fs';
import type { DataModel } from './schema-drift.js';

type Model = DataModel['models'][number];
type Field = Model['fields'][number];

/**
 * The models of a schema.prisma file in the shape `schemaDrift` reads. Prisma 7's generated client no
 * longer exports `Prisma.dmmf` and its runtime model has no nullability, so the file itself is read:
 * model and field names, `?` and `[]`, `@map` and `@@map`.
 */
export function prismaDatamodel(schemaPath: string): DataModel {
  const blocks = [...readFileSync(schemaPath, 'utf8').matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const names = new Set(blocks.map(([, name]) => name));
  return {
    models: blocks.map(([, name = '', body = '']) => ({
      name,
      dbName: /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? null,
      fields: body.split('\n').flatMap((line) => fieldOf(line.trim(), names)),
    })),
  };
}

function fieldOf(line: string, models: Set<string | undefined>): Field[] {
  const match = /^(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
  if (!match || line.startsWith('//')) return [];
  const [, name = '', type = '', list, optional, attributes = ''] = match;
  return [
    {
      name,
      kind: models.has(type) ? 'object' : 'scalar',
      dbName: /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? null,
      isRequired: optional === undefined && list === undefined,
      isList: list !== undefined,
    },
  ];
}
