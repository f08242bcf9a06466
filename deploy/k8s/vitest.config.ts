import { workspaceProject } from '../../vitest.shared.ts';

// Renders and validates the Kubernetes manifests: no Postgres or NATS. The CLI tests start Node, hence the timeout.
export default workspaceProject('k8s', { integration: false, include: ['test/**/*.test.ts'], testTimeout: 60_000 });
