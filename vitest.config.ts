import { defineConfig } from 'vitest/config';

// Three projects: unit tests beside the code (ts/), cross-layer suites against the built package
// and real clients (test/), and the headless-Chromium suite (test/browser/).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['ts/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'] } },
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**'],
          globalSetup: ['test/testing/global-setup.ts'],
        },
      },
      { test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
    ],
  },
});
