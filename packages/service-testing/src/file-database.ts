import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { adminUrlOf, ensureDatabase } from '@app/service-kit';

/**
 * A database of one test file, beside the run's: for a file whose services must not see the others' rows — a
 * calendar-sync syncs every due connection of its database, so files sharing one would sync each other's; a query
 * plan depends on the statistics of every row in the table. `url` is the run's login on it, for `DATABASE_URL`.
 */
export class FileDatabase {
  private constructor(readonly url: string) {}

  static create(): FileDatabase {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `${url.pathname}_${randomUUID().slice(0, 8)}`;
    return new FileDatabase(url.toString());
  }

  /** Creates it up front: services started side by side would race to create it. */
  async ensure(): Promise<void> {
    await ensureDatabase(this.url);
  }

  async drop(): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrlOf(this.url) });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${new URL(this.url).pathname.slice(1)}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
}
