// The peer of `npm run bench:peers` (bench/peers/run.mjs): Medusa v2 as a new user configures it, on a database of its
// own, with its in-memory defaults for the event bus, cache and workflow engine (no Redis), and no admin dashboard
// (it would need a build, and the bench asks only the store API).
import { defineConfig } from '@medusajs/framework/utils';

const cors = 'http://localhost:8000';

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/peer_medusa',
    http: {
      storeCors: cors,
      adminCors: cors,
      authCors: cors,
      jwtSecret: process.env.JWT_SECRET ?? 'bench-peers-jwt-secret',
      cookieSecret: process.env.COOKIE_SECRET ?? 'bench-peers-cookie-secret',
    },
  },
  admin: { disable: true },
});
