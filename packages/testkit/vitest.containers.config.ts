import { workspaceProject } from '../../vitest.shared.ts';

/**
 * The kit's own tests: its containers and the docs/api.md example starting the whole system. Not part of `npm test` (they
 * need a container engine and the service images); `npm run test:containers testkit` runs them. They start their
 * containers themselves, so no shared Postgres or NATS from the global setup.
 */
export default workspaceProject('testkit', { integration: false, testTimeout: 90_000 });
