import { defineConfig } from 'vitest/config';

/** Every workspace's suite, as one run. Each project has its own database and NATS prefix (see vitest.shared.ts). */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'e2e/vitest.config.ts',
      'e2e/vitest.faults.config.ts',
      'deploy/k8s/vitest.config.ts',
    ],
  },
});
