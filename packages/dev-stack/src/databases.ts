import pg from 'pg';

/** Drops and creates the database of `url` (benchmarks and soak runs start from nothing). */
export async function recreateDatabase(url: string): Promise<void> {
  await onServer(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
}

/** Drops the database of `url` (a run whose data is too big to leave behind). */
export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/** Runs `work` on a connection to the server's `postgres` database, given the name of `url`'s. */
async function onServer(url: string, work: (client: pg.Client, name: string) => Promise<void>): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await work(client, name);
  } finally {
    await client.end();
  }
}
