import { workspaceProject } from '../vitest.shared.ts';

/**
 * `npm run test:compose`: docker-compose.yml built and run for real on a container engine, driven through the
 * gateway. Not part of `npm test` (it needs an engine and builds images); CI runs it on its own.
 */
export default workspaceProject('compose', {
  include: ['compose/**/*.test.ts'],
  integration: false,
  sequential: true,
  testTimeout: 180_000,
});
