import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules', 'out', 'test/bench/**'],
    // Says once that the shared corpus is missing (the tests that read it skip), and builds the
    // quire bundle the spawned CLI tests run, and the app (out/), when a source changed since built.
    globalSetup: [
      'test/support/corpus-notice.ts',
      'test/support/cli-bundle-setup.ts',
      'test/support/app-build-setup.ts',
    ],
    // Server tests open real SQLite files and real loopback ports; forks keep native handles isolated.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
