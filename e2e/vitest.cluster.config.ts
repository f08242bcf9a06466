import { workspaceProject } from '../vitest.shared.ts';

/**
 * `npm run test:cluster`: the real processes on a three-node NATS JetStream cluster (nats-server processes on loopback
 * ports) losing nodes under load. Not in `npm test`'s projects: CI runs it after (.ci/run), about 3 minutes.
 */
export default workspaceProject('cluster', { include: ['cluster/**/*.test.ts'], sequential: true, testTimeout: 400_000 });
