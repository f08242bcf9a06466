import { workspaceProject } from '../vitest.shared.ts';

/** End-to-end: the real processes (built dist), driven only through the gateway over HTTP; one stack at a time. */
export default workspaceProject('e2e', { sequential: true, testTimeout: 60_000 });
