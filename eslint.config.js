import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Type-aware rules need a tsconfig that includes the file: every workspace's tsconfig.json covers its src and tests;
// the vitest configs (and the kube-play test) sit outside them and get the syntactic rules only.
const OUTSIDE_TSCONFIGS = ['**/vitest.*.ts', 'vitest.*.ts', 'deploy/k8s/kube-play/**'];

export default tseslint.config(
  // bench/peers/medusa is the peer's own project (typed against Medusa's packages, installed only by `npm run bench:peers`).
  { ignores: ['**/dist/**', '**/node_modules/**', '**/src/generated/**', '.tools/**', 'bench/results/**', 'bench/peers/medusa/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    ignores: OUTSIDE_TSCONFIGS,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    // Not all of recommendedTypeChecked: it reports ~275 findings here, mostly no-unsafe-* on test bodies read as `any`.
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
    },
  },
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'Buffer', 'URL', 'fetch', 'AbortSignal', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
