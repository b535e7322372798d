// `npm test`: every test — unit and integration (vitest, real anvil), the SDK clients, the npm package end to end,
// and the console e2e tests (Playwright in Debian's Chromium). Ends with one line "tests: N passed, N failed".
// `node scripts/test.mjs <unit | integration | package | e2e | fast>` runs one selection (`fast`: npm run test:fast).
//
// The full run keeps both cores busy: what leaves a core idle (a single-threaded typecheck, npm install, services
// that wait on timers, a browser waiting for a page) runs beside what does not, in two lanes:
//   in front:  the unit tests, the integration tests with the SDK client tests (in the same run, last, each waiting
//              for their package's install if it is still running), then the console e2e tests
//   beside:    the SDK client package (install, typecheck); the npm package end to end and the contracts check (beside
//              the integration tests); then, once those two are done, the lifecycle files (services started, killed and
//              restarted), into the e2e phase
// The front lane streams its output; a step beside writes a log in test-results/ that is printed when it ends. Each
// phase says how busy it kept the cores. The vitest reports are merged into test-results/vitest.json, and the
// README's client table is written from it.
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { buildDesktopIfStale } from './buildDesktopIfStale.mjs'
import { installSdkClients, SDK_CLIENTS_DIR } from './installSdkClients.mjs'
import { NATIVE_TSC } from './typecheck.mjs'

/** test/helpers/awaitSdkClientInstall.ts reads the install's outcome from the file this names. */
const SDK_CLIENT_INSTALL_STATUS_ENV = 'OPSTATION_SDK_CLIENT_INSTALL_STATUS'

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

/** The vitest projects (vitest.config.ts) and file filters of each selection. */
const VITEST_SELECTION = {
  unit: ['--project', 'unit', '--project', 'contracts'],
  integration: [
    '--project',
    'integration',
    '--project',
    'sdk-clients',
    '--project',
    'lifecycle',
    '--project',
    'mocking',
  ],
  package: ['--project', 'package'],
  fast: ['--project', 'unit', '--project', 'integration', 'test/unit/', ...FAST_INTEGRATION_FILES],
}

const node = process.execPath
const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')
const playwrightBin = path.join(root, 'node_modules', '@playwright/test', 'cli.js')

let passed = 0
let failed = 0
let exitCode = 0

/**
 * Runs one step. In front (no `log`), its output streams; beside (`log`: a file name in test-results/), its output
 * goes to that file, printed whole when the step ends. Resolves to its exit status (1 when it could not start).
 */
function runStep(label, command, args, { env = {}, log } = {}) {
  const logFile = log && path.join(results, log)
  process.stdout.write(log ? `\n── ${label} (beside; log: test-results/${log})\n` : `\n── ${label}\n`)
  const fd = logFile ? openSync(logFile, 'w') : undefined
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: fd === undefined ? 'inherit' : ['ignore', fd, fd],
      env: { ...process.env, ...env },
    })
    const finish = (status) => {
      if (fd !== undefined) {
        closeSync(fd)
        process.stdout.write(`\n── ${label}: ended (${status === 0 ? 'ok' : `exit ${status}`})\n`)
        process.stdout.write(readFileSync(logFile, 'utf8'))
      }
      if (status !== 0) exitCode = 1
      resolve(status)
    }
    child.on('error', (error) => {
      if (fd !== undefined) writeFileSync(logFile, `${error.message}\n`, { flag: 'a' })
      finish(1)
    })
    child.on('exit', (status, signal) => finish(status ?? (signal ? 1 : 0)))
  })
}

/** One vitest run of a selection, with its JSON report at test-results/<report>; resolves to that report or null. */
async function runVitest(label, selection, report, options) {
  const file = path.join(results, report)
  rmSync(file, { force: true })
  await runStep(
    label,
    node,
    [vitestBin, 'run', ...selection, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    options,
  )
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null
}

/** Counts a vitest report's tests (a file that fails to load fails no test but must still count). */
function countVitest(report) {
  if (!report) {
    failed += 1
    return
  }
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  if (report.numFailedTestSuites && !report.numFailedTests) failed += report.numFailedTestSuites
}

/** The reports of one run's phases as one vitest JSON report (test-results/vitest.json). */
function writeMergedVitestReport(reports) {
  const present = reports.filter(Boolean)
  if (present.length === 0) return
  const sum = (key) => present.reduce((total, report) => total + (report[key] ?? 0), 0)
  const merged = {
    ...present[0],
    numTotalTests: sum('numTotalTests'),
    numPassedTests: sum('numPassedTests'),
    numFailedTests: sum('numFailedTests'),
    numPendingTests: sum('numPendingTests'),
    numTodoTests: sum('numTodoTests'),
    numTotalTestSuites: sum('numTotalTestSuites'),
    numPassedTestSuites: sum('numPassedTestSuites'),
    numFailedTestSuites: sum('numFailedTestSuites'),
    numPendingTestSuites: sum('numPendingTestSuites'),
    startTime: Math.min(...present.map((report) => report.startTime ?? Number.POSITIVE_INFINITY)),
    success: present.every((report) => report.success),
    testResults: present.flatMap((report) => report.testResults ?? []),
  }
  writeFileSync(path.join(results, 'vitest.json'), JSON.stringify(merged))
}

/** test/helpers/chainTemplate.ts: the runs started with this variable set start their services from that folder. */
const CHAIN_TEMPLATE_ENV = 'OPSTATION_TEST_CHAIN_TEMPLATE'

/**
 * Builds the deployed chain (test/helpers/printChainTemplate.ts) and resolves to its folder; null when it could not
 * (each run then builds its own, and says why if that fails too).
 */
function buildChainTemplate() {
  return new Promise((resolve) => {
    const child = spawn(
      node,
      ['--import', 'tsx', path.join(root, 'test', 'helpers', 'printChainTemplate.ts')],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.on('error', () => resolve(null))
    child.on('exit', (status) => resolve(status === 0 && out.trim() ? out.trim() : null))
  })
}

/** Installs the SDK client test package (its own dependencies: scripts/installSdkClients.mjs); false if it failed. */
async function installSdkClientPackage(options) {
  if (!options?.log) return installSdkClients()
  return (
    (await runStep('SDK client test package: install', node, ['scripts/installSdkClients.mjs'], options)) ===
    0
  )
}

/**
 * Type-checks the SDK client tests against their package (TypeScript's native compiler, as `npm run typecheck`; one
 * thread, beside the tests); false if it failed.
 */
async function typecheckSdkClients(options) {
  const tsconfig = path.join(SDK_CLIENTS_DIR, 'tsconfig.json')
  const args = [NATIVE_TSC, '--noEmit', '--singleThreaded', '-p', tsconfig]
  return (await runStep('typecheck (SDK client tests)', node, args, options)) === 0
}

/** The SDK client test package, installed and type-checked. */
async function prepareSdkClients() {
  return (await installSdkClientPackage()) && (await typecheckSdkClients())
}

/** The README's client support table, from a run that included the client tests. */
async function writeClientTable(report) {
  if (report)
    await runStep('client table', node, [path.join(root, 'scripts', 'write-client-table.mjs'), report])
}

/** .ci/run: the file its install of Debian's chromium, beside the first phases, writes its exit status to. */
const CHROMIUM_INSTALL_STATUS_ENV = 'OPSTATION_CHROMIUM_INSTALL_STATUS'

/**
 * Waits for .ci/run's install of Debian's chromium when it is still running (it writes its exit status to the file
 * OPSTATION_CHROMIUM_INSTALL_STATUS names) and prints its log when it failed; returns at once otherwise.
 */
async function awaitChromiumInstall(timeoutMs = 15 * 60_000) {
  const statusFile = process.env[CHROMIUM_INSTALL_STATUS_ENV]
  if (!statusFile) return
  const log = path.join(path.dirname(statusFile), 'chromium-install.log')
  if (!existsSync(statusFile))
    process.stdout.write(`\n── waiting for Debian's chromium to install (log: ${log})\n`)
  const deadline = Date.now() + timeoutMs
  while (!existsSync(statusFile) && Date.now() < deadline) await sleep(500)
  const status = existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim() : 'still running'
  if (status !== '0' && existsSync(log))
    process.stdout.write(`\ninstalling Debian's chromium failed (${status}):\n${readFileSync(log, 'utf8')}\n`)
}

/** The console e2e tests; false (counted as a failure) when Chromium is missing. */
async function runPlaywright() {
  if (!existsSync(path.join(root, 'playwright.config.ts'))) return
  await awaitChromiumInstall()
  if (!existsSync('/usr/bin/chromium')) {
    process.stdout.write(
      "\nPlaywright needs Debian's Chromium at /usr/bin/chromium: apt-get install -y chromium\n",
    )
    failed += 1
    exitCode = 1
    return
  }
  const report = path.join(results, 'playwright.json')
  rmSync(report, { force: true })
  await runStep('playwright (console e2e)', node, [playwrightBin, 'test'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  })
  if (!existsSync(report)) {
    failed += 1
    return
  }
  const stats = JSON.parse(readFileSync(report, 'utf8')).stats ?? {}
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0)
  failed += stats.unexpected ?? 0
}

function failSdkClients(ok) {
  if (ok) return
  failed += 1
  exitCode = 1
}

/** Reads the machine's CPU time (Linux /proc/stat): busy and total jiffies over all cores; null elsewhere. */
function readCpuTimes() {
  if (!existsSync('/proc/stat')) return null
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const values = fields.map(Number)
  const idle = (values[3] ?? 0) + (values[4] ?? 0)
  const total = values.reduce((sum, value) => sum + value, 0)
  return { busy: total - idle, total }
}

/** Starts a phase's clock; its `end()` prints the phase's wall time and how busy the machine's cores were. */
function startPhase(name) {
  const started = performance.now()
  const cpu = readCpuTimes()
  return {
    end() {
      const seconds = ((performance.now() - started) / 1000).toFixed(0)
      const now = readCpuTimes()
      const busy =
        cpu && now && now.total > cpu.total
          ? `, cores ${Math.round((100 * (now.busy - cpu.busy)) / (now.total - cpu.total))} % busy`
          : ''
      process.stdout.write(`\n── phase "${name}": ${seconds} s${busy}\n`)
    },
  }
}

async function runEverything() {
  const reports = []
  // 1. The unit tests in front; beside, the SDK client package's install (mostly disk), then its typecheck (one
  //    core), which nothing waits for: it is only counted at the end.
  let phase = startPhase('unit tests')
  // The install's outcome, for the SDK client files of the integration run (test/helpers/awaitSdkClientInstall.ts).
  const sdkInstallStatus = path.join(results, 'sdk-clients-install.status')
  rmSync(sdkInstallStatus, { force: true })
  const sdkInstalled = installSdkClientPackage({ log: 'sdk-clients.log' }).then((installed) => {
    writeFileSync(sdkInstallStatus, installed ? 'installed' : 'npm ci failed')
    return installed
  })
  const sdkChecked = sdkInstalled.then(
    (installed) => installed && typecheckSdkClients({ log: 'sdk-clients-typecheck.log' }),
  )
  // The deployed chain every service of the later phases starts from (test/helpers/chainTemplate.ts), built once
  // here for the integration, lifecycle and e2e runs, each of which built its own at its start.
  const chainTemplate = buildChainTemplate()
  reports.push(await runVitest('vitest: unit', ['--project', 'unit'], 'vitest-unit.json'))
  phase.end()
  const templateDir = await chainTemplate
  if (templateDir) process.env[CHAIN_TEMPLATE_ENV] = templateDir
  // 2. The integration tests that keep both cores busy, with the SDK client tests in the same run: its last files (a
  //    group's projects run in the order of their names), which wait for their package's install if it is still
  //    running (it ended about a minute into this phase in CI runs), so that they fill the cores the integration
  //    files' tail leaves, where a run of their own after this one waited for its last file. Beside them, the npm
  //    package end to end (a clone, a build, an npm install, a few services: mostly waiting), in the core-time the
  //    integration tests leave (they kept the cores 82 % busy); it ran beside the lifecycle files before, which made
  //    that lane the longest of the e2e phase.
  phase = startPhase(
    'integration tests, and beside them the npm package, the contracts check, then lifecycle',
  )
  const packaged = runVitest('vitest: the npm package', VITEST_SELECTION.package, 'vitest-package.json', {
    log: 'vitest-package.log',
  })
  // The contracts check (one solc process, about a minute of one core) takes the core-time the integration tests and
  // the npm package leave; in the unit phase, which keeps both cores busy, it was that phase's longest file.
  const contractsChecked = runVitest(
    'vitest: contracts check',
    ['--project', 'contracts'],
    'vitest-contracts.json',
    {
      log: 'vitest-contracts.log',
    },
  )
  // Then the lifecycle files (services started, killed and restarted: much of their time is waiting), as soon as the
  // npm package and the contracts check are done: the integration run's last files (the SDK clients) left a core
  // idle for about a minute (cores 49-65 % busy in those 20-s windows of the last CI run).
  const lifecycle = Promise.all([packaged, contractsChecked]).then(() =>
    runVitest('vitest: lifecycle', ['--project', 'lifecycle'], 'vitest-lifecycle.json', {
      log: 'vitest-lifecycle.log',
    }),
  )
  reports.push(
    await runVitest(
      'vitest: integration, mocking and SDK clients',
      ['--project', 'integration', '--project', 'mocking', '--project', 'sdk-clients'],
      'vitest-integration.json',
      { env: { [SDK_CLIENT_INSTALL_STATUS_ENV]: sdkInstallStatus } },
    ),
  )
  reports.push(await packaged)
  reports.push(await contractsChecked)
  phase.end()
  // 3. The console e2e tests in front; beside, the rest of the lifecycle files. The desktop build (out/, which the e2e
  //    tests serve and the packaging test packs) is made before the e2e tests, once, so that nothing rebuilds it while
  //    a browser loads it; the packaging test, the only lifecycle file that reads out/, builds it or waits for this
  //    build (buildDesktopIfStale takes a lock).
  phase = startPhase('console e2e tests, and beside them the rest of lifecycle')
  try {
    buildDesktopIfStale()
  } catch (error) {
    process.stdout.write(`\n${error.message}\n`)
    failed += 1
    exitCode = 1
  }
  await runPlaywright()
  reports.push(await lifecycle)
  failSdkClients(await sdkChecked)
  phase.end()
  if (templateDir) rmSync(templateDir, { recursive: true, force: true })
  for (const report of reports) countVitest(report)
  writeMergedVitestReport(reports)
  await writeClientTable(existsSync(path.join(results, 'vitest.json')) && path.join(results, 'vitest.json'))
}

async function runSelection() {
  if (only === 'integration') failSdkClients(await prepareSdkClients())
  if (only in VITEST_SELECTION) {
    const report = await runVitest('vitest', VITEST_SELECTION[only], 'vitest.json')
    countVitest(report)
    if (only === 'integration') await writeClientTable(report && path.join(results, 'vitest.json'))
  }
  if (only === 'e2e') await runPlaywright()
}

if (only && !(only in VITEST_SELECTION) && only !== 'e2e') {
  process.stdout.write(`unknown selection "${only}": unit, integration, package, e2e or fast\n`)
  process.exit(2)
}
await (only ? runSelection() : runEverything())
if (failed > 0) exitCode = 1
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`)
process.exit(exitCode)
