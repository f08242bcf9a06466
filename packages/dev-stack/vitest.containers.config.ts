import { workspaceProject } from '../../vitest.shared.ts';

/**
 * npm start's kept containers (test/kept-containers.test.ts): not part of `npm test`, since they need a container
 * engine; `npm run test:containers testkit` runs them beside the kit's own. They start their containers themselves,
 * so no shared Postgres or NATS from the global setup.
 */
export default workspaceProject('dev-stack-containers', {
  integration: false,
  include: ['test/kept-containers.test.ts'],
  testTimeout: 90_000,
});
