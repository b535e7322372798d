import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Integration files that start, stop, kill or restart a service or its chain as what they test (start-up, lock,
 * permissions, outage, fork, external node, desktop, CLI): the `lifecycle` project, each file with services of its
 * own. It shares the integration group's two workers (the same groupOrder), so its long files run beside the others
 * rather than after them.
 */
const LIFECYCLE = [
  'test/integration/service/**/*.test.ts',
  'test/integration/desktop/**/*.test.ts',
  'test/integration/api/**/*.test.ts',
  'test/integration/setup/**/*.test.ts',
  'test/integration/chains/**/*.test.ts',
  'test/integration/chain/{startChain,restart,externalNode,forkMode,accountZoo}.test.ts',
  'test/integration/bundler/crashRecovery.test.ts',
  'test/integration/time/{revertDurability,revertAtomicity,opstationHandle}.test.ts',
]

/** Files that mock a module the service imports (vi.mock): each loads its modules afresh, in a process of its own. */
const MOCKING = [
  'test/integration/desktop/electronEntry.test.ts',
  'test/integration/docs/apiDocuments.test.ts',
]

/** The committed artifacts are what solc makes of contracts/ (a solc run of every contract). */
const CONTRACTS_CHECK = 'test/unit/chain/artifacts.test.ts'

/** The deployed chain, built once per run: each service starts from a copy (test/helpers/chainTemplate.ts). */
const CHAIN_TEMPLATE_SETUP = 'test/integration/globalSetup.ts'

/**
 * What every project of services on a real chain shares: a service per file (or the worker's shared one) from the
 * chain template, the files of a worker sharing its loaded modules (isolate: false: the service and its generated
 * contract code are evaluated once per worker rather than once per file), and two files at a time, each with its
 * service and chain, which fit a 2-core machine.
 */
const SERVICE_PROJECT = {
  environment: 'node' as const,
  globalSetup: [CHAIN_TEMPLATE_SETUP],
  isolate: false,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  maxWorkers: 2,
  sequence: { groupOrder: 1 },
}

export default defineConfig({
  test: {
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by each file's content and path):
    // the service's modules are transformed once per run, not again in each phase of `npm test` (unit, integration,
    // lifecycle, package) and each project, and not again in the next run. `npx vitest --clearCache` empties it.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, CONTRACTS_CHECK],
          environment: 'node',
          // The files of a worker share its loaded modules: none mocks a module, and each restores what it stubs.
          isolate: false,
          // Some spawn a process or wait for timers: seconds on a loaded machine.
          testTimeout: 60_000,
          // vitest's default on a 2-core machine is one worker; two keep both cores busy.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // The artifacts check recompiles every contract with solc (a minute on a quiet machine, three beside a
          // typecheck at load 10: hence its time-out): its own run beside the integration tests in `npm test`, with the
          // unit tests in `npm run test:unit`, out of the quick loop (`npm run test:fast`).
          name: 'contracts',
          include: [CONTRACTS_CHECK],
          environment: 'node',
          testTimeout: 360_000,
          // A group's projects share one worker count (vitest requires it): the unit project's.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // The service's behaviour through its interfaces (bundler, paymaster, clients, sandbox, REST). A file
          // that only adds data of its own uses the worker's shared service (test/helpers/sharedTestService.ts);
          // the others start their own from the chain template and dispose of it.
          ...SERVICE_PROJECT,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/integration/package/**', ...LIFECYCLE, ...MOCKING],
        },
      },
      {
        test: {
          // The SDKs whose dependency trees cannot share the app's: test/sdk-clients is its own package, which
          // scripts/test.mjs installs (and type-checks). In `npm test` they are the integration run's last files, and
          // each waits for that install (its setup file). Otherwise as `integration`.
          ...SERVICE_PROJECT,
          name: 'sdk-clients',
          include: ['test/sdk-clients/**/*.test.ts'],
          setupFiles: ['test/helpers/awaitSdkClientInstall.ts'],
        },
      },
      {
        test: {
          // Modules shared by the files of a worker, as in `integration`: what a file starts is its own.
          ...SERVICE_PROJECT,
          name: 'lifecycle',
          include: LIFECYCLE,
          exclude: [...configDefaults.exclude, ...MOCKING],
        },
      },
      {
        test: {
          name: 'mocking',
          include: MOCKING,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
