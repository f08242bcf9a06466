import { workspaceProject } from '../../vitest.shared.ts';

/** The SDK against the real processes (built dist, as e2e runs them) plus local fake servers; one stack at a time. */
export default workspaceProject('sdk', { sequential: true, testTimeout: 60_000 });
