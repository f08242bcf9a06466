import { workspaceProject } from '../../../vitest.shared.ts';

/** `npx vitest run --config bench/vitest.config.ts`: the seat paths' measurement (numbers, not a test; never in npm test). */
export default workspaceProject('bookings-bench', { include: ['bench/**/*.measure.ts'], testTimeout: 600_000 });
