import { workspaceProject } from '../../vitest.shared.ts';

/** The differ and the gate on small fixture documents; no database, no NATS. */
export default workspaceProject('openapi-gate', { integration: false });
