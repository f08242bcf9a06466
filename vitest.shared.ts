import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const globalSetup = fileURLToPath(new URL('./packages/service-testing/src/global-setup.ts', import.meta.url));

/**
 * The vitest project of one workspace: workspace packages resolve to their TypeScript sources (the
 * `source` export condition), and the global setup gives the run its own database and NATS prefix.
 */
export function workspaceProject(
  name: string,
  options: { integration?: boolean; include?: string[]; sequential?: boolean; testTimeout?: number } = {},
) {
  return defineProject({
    resolve: { conditions: ['source'] },
    ssr: { resolve: { conditions: ['source'] } },
    test: {
      name,
      include: options.include ?? ['test/**/*.test.ts'],
      globalSetup: options.integration === false ? [] : [globalSetup],
      fileParallelism: !options.sequential,
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: 30_000,
    },
  });
}
