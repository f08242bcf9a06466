import { workspaceProject } from '../vitest.shared.ts';

/** Fault tests: the real processes under NATS outages, killed services and dropped database connections. */
export default workspaceProject('faults', { include: ['faults/**/*.test.ts'], sequential: true, testTimeout: 120_000 });
