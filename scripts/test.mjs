// `npm test`: every test — unit and integration (vitest, real anvil), then the console e2e tests
// (Playwright in Debian's Chromium). Ends with one line "tests: N passed, N failed".
// `node scripts/test.mjs <unit | integration | e2e | fast>` runs one selection (`fast`: npm run test:fast).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { installSdkClients, SDK_CLIENTS_DIR } from './installSdkClients.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const results = path.join(root, 'test-results')
mkdirSync(results, { recursive: true })
const only = process.argv[2] // optional: unit | integration | e2e | fast

/**
 * `npm run test:fast` (`fast`): the unit tests and these integration files, which drive the bundler, the paymaster and
 * a client library against the shared service of each worker (test/helpers/sharedTestService.ts): a loop of about a
 * minute for everyday work. `npm test` stays the full run and the CI gate.
 */
const FAST_INTEGRATION_FILES = [
  'test/integration/bundler/viemClients.test.ts',
  'test/integration/paymaster/viemPaymasterClient.test.ts',
  'test/integration/paymaster/limits.test.ts',
  'test/integration/clients/viemAccounts.test.ts',
]

let passed = 0
let failed = 0
let exitCode = 0

function run(label, command, args, env = {}) {
  process.stdout.write(`\n── ${label}\n`)
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) exitCode = 1
  return result.status
}

/** The SDK client test package (its own dependencies: scripts/installSdkClients.mjs), installed and type-checked. */
function prepareSdkClients() {
  if (!installSdkClients()) return false
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  return (
    run('typecheck (SDK client tests)', process.execPath, [
      tsc,
      '--noEmit',
      '-p',
      path.join(SDK_CLIENTS_DIR, 'tsconfig.json'),
    ]) === 0
  )
}

if (!only || only === 'integration') {
  if (!prepareSdkClients()) {
    failed += 1
    exitCode = 1
  }
}

/** The vitest projects (vitest.config.ts) and file filters of each selection; none = every project. */
const VITEST_SELECTION = {
  unit: ['--project', 'unit', '--project', 'contracts'],
  integration: ['--project', 'integration', '--project', 'lifecycle', '--project', 'mocking'],
  fast: ['--project', 'unit', '--project', 'integration', 'test/unit/', ...FAST_INTEGRATION_FILES],
}

if (!only || only in VITEST_SELECTION) {
  const vitestJson = path.join(results, 'vitest.json')
  run('vitest', process.execPath, [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    ...(only ? VITEST_SELECTION[only] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ])
  if (existsSync(vitestJson)) {
    const report = JSON.parse(readFileSync(vitestJson, 'utf8'))
    passed += report.numPassedTests ?? 0
    failed += report.numFailedTests ?? 0
    // A file that fails to load fails no test but must still count.
    if (report.numFailedTestSuites && !report.numFailedTests) failed += report.numFailedTestSuites
    // The README's client support table is the outcome of the client tests (a full or integration run).
    if (!only || only === 'integration')
      run('client table', process.execPath, [
        path.join(root, 'scripts', 'write-client-table.mjs'),
        vitestJson,
      ])
  } else {
    failed += 1
  }
}

if ((!only || only === 'e2e') && existsSync(path.join(root, 'playwright.config.ts'))) {
  if (!existsSync('/usr/bin/chromium')) {
    process.stdout.write(
      "\nPlaywright needs Debian's Chromium at /usr/bin/chromium: apt-get install -y chromium\n",
    )
    failed += 1
    exitCode = 1
  } else {
    const playwrightJson = path.join(results, 'playwright.json')
    run(
      'playwright (console e2e)',
      process.execPath,
      [path.join(root, 'node_modules', '@playwright/test', 'cli.js'), 'test'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
      },
    )
    if (existsSync(playwrightJson)) {
      const stats = JSON.parse(readFileSync(playwrightJson, 'utf8')).stats ?? {}
      passed += (stats.expected ?? 0) + (stats.flaky ?? 0)
      failed += stats.unexpected ?? 0
    } else {
      failed += 1
    }
  }
}

if (failed > 0) exitCode = 1
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`)
process.exit(exitCode)
