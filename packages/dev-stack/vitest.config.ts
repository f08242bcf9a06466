import { workspaceProject } from '../../vitest.shared.ts';

// The stack's pure parts; its kept containers need an engine and run in vitest.containers.config.ts.
export default workspaceProject('dev-stack', { integration: false, include: ['test/start-env.test.ts', 'test/port-check.test.ts'] });
