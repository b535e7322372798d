import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // The artifacts check recompiles every contract with solc (tens of seconds).
          testTimeout: 180_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          // test/sdk-clients is its own package (scripts/test.mjs installs it first).
          include: ['test/integration/**/*.test.ts', 'test/sdk-clients/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/integration/package/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file starts its own service and chain; two at a time fit a 2-core machine.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // The npm package end to end (npm pack with its build, an npm install, several services): minutes, so it
          // runs on its own after the others (`npm test`; alone: `npm run test:package`).
          name: 'package',
          include: ['test/integration/package/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 600_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
})
