import { defineConfig } from 'vitest/config';

// Vitest stays away from the Playwright specs in e2e/ (stack-notes.md).
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'contract', include: ['packages/contract/test/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One database per file; files run in parallel workers.
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'robot-sim',
          include: ['apps/robot-sim/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      './apps/web/vite.config.ts',
    ],
  },
});
