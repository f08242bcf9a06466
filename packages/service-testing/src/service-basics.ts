import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { BaseConfig, RunningService } from '@app/service-kit';
import { prismaDatamodel } from './prisma-datamodel.js';
import { schemaDrift } from './schema-drift.js';

/** What describeServiceBasics checks of one service. */
export interface ServiceBasics {
  /** The started service (read inside tests: the suite's beforeAll starts it). */
  running(): Pick<RunningService<BaseConfig>, 'app'> & { infra: { pool: pg.Pool } };
  /** Its Postgres schema. */
  schema: string;
  /** Its prisma/schema.prisma, which must mirror what the migrations made. */
  prismaSchema: URL;
  /** Paths its OpenAPI document must list (among others), when the suite checks no more than that of it. */
  paths?: string[];
}

/**
 * What every service's suite checks once the service is started, the same way for each: /readyz says ready with its
 * database and NATS, its Prisma schema mirrors the migrated tables, and its OpenAPI document lists its paths.
 */
export function describeServiceBasics(service: ServiceBasics): void {
  describe('once started', () => {
    it('when started, then it is ready with database and NATS', async () => {
      const response = await service.running().app.inject({ url: '/readyz' });
      expect(response.json()).toEqual({ status: 'ok', checks: { accepting: 'ok', database: 'ok', nats: 'ok' } });
    });

    it('when the migrations have run, then the Prisma schema mirrors them', async () => {
      const datamodel = prismaDatamodel(fileURLToPath(service.prismaSchema));
      expect(await schemaDrift(service.running().infra.pool, service.schema, datamodel)).toEqual([]);
    });

    const { paths } = service;
    if (paths) {
      it('when the OpenAPI document is asked for, then it lists every path of the service', async () => {
        const document = (await service.running().app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
        expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(paths));
      });
    }
  });
}
