import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page, type TestInfo } from '@playwright/test'
import { DESKTOP_BUILD, isDesktopBuildFresh } from '../../scripts/buildDesktopIfStale.mjs'
import {
  buildConsoleWithVite,
  buildDesktopWithElectronVite,
  type DesktopBuild,
  runConsoleStaleCheck,
  stageConsoleCheckout,
} from '../helpers/consoleBuilds'
import {
  asar,
  canPackageLinuxDir,
  packageLinuxDir,
  packageRepositoryOnce,
  stagePackagingProject,
} from '../helpers/linuxDirPackage'
import { spawnCli } from '../helpers/spawnCli'
import { testWithoutService as test } from './fixtures'
import { watchConsoleLoad } from './pages/consoleLoadProbe'

/**
 * The console works at every URL after every build path (issue 18): each path builds the console into a folder of
 * this test's own (the repository's out/renderer is never written: other tests serve it meanwhile), a service
 * started with OPSTATION_CONSOLE_DIR serves that folder, and a signed-in browser opens deep console routes directly
 * and again after a reload. A console built with a relative base (electron-vite's production default) loads
 * `…/policies/assets/*.js` there, which 404s: a blank page.
 *
 * Paths: `npm run build:renderer` (vite + publishConsole), `npm run build` (electron-vite + publishConsole), the
 * headless stale check (scripts/buildConsoleIfStale.mjs: `npm run serve`, `npm start` without Electron, the e2e
 * globalSetup), run in a copy of the checkout, and the packaged app (electron-builder `--dir` of that
 * electron-vite build against a stand-in Electron, whose app.asar's out/renderer is extracted and served; Linux
 * x64/arm64 only, skipped elsewhere). Under `npm test`, which builds out/ just before, the electron-vite path reads
 * that build and its package (shared with the packaging test) instead of building and packing the app again. `npm start` with Electron runs `npm run build` and serves out/renderer the same
 * way; the Electron window itself cannot run here (no Electron binary).
 */

// One worker, in order: the packaged path packs the `npm run build` path's electron-vite build. Each test builds (vite,
// electron-vite, electron-builder): a minute or more on a busy machine, so more time than the other specs get.
test.describe.configure({ mode: 'default', timeout: 300_000 })

let temp: string
let desktopBuild: Promise<DesktopBuild> | undefined
/**
 * The electron-vite build, once per worker: the repository's out/ when it is current (`npm test` has just built it
 * with these same two steps, electron-vite then publishConsole, and serves it meanwhile: read, never written), else a
 * build of this test's own.
 */
const electronViteBuild = () =>
  (desktopBuild ??= repositoryBuildIsCurrent
    ? Promise.resolve(DESKTOP_BUILD)
    : buildDesktopWithElectronVite(path.join(temp, 'npm-run-build')))
/** Decided once, before any test of this file: whether the repository's out/ is the current desktop build. */
const repositoryBuildIsCurrent = isDesktopBuildFresh()

test.beforeAll(async () => {
  temp = await mkdtemp(path.join(os.tmpdir(), 'opstation-build-paths-'))
})

test.afterAll(async () => {
  await desktopBuild?.catch(() => undefined)
  if (temp) await rm(temp, { recursive: true, force: true })
})

/**
 * `opstation serve` on a fresh data folder, serving the console in `consoleDir`. Without a chain: what is tested is
 * the console's files, and four anvil starts would cost the spec many seconds.
 */
async function serveConsole(consoleDir: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-e2e-'))
  const { child, ready, stderr, exited } = await spawnCli(
    ['--port', '0', '--data-dir', dataDir, '--log-level', 'warn', '--no-chain'],
    { timeoutMs: 90_000, env: { ...process.env, FORCE_COLOR: '0', OPSTATION_CONSOLE_DIR: consoleDir } },
  )
  return {
    ready,
    logs: stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
        await exited
        clearTimeout(timer)
      }
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Serves `consoleDir`, signs in, and opens the deep routes directly and after a reload. */
async function expectDeepRoutesLoad(page: Page, consoleDir: string, testInfo: TestInfo): Promise<void> {
  expect(existsSync(path.join(consoleDir, 'index.html')), `${consoleDir}/index.html`).toBe(true)
  const service = await serveConsole(consoleDir)
  try {
    const base = String(ready(service, 'dashboardUrl'))
    const authToken = String(ready(service, 'authToken'))
    const signIn = await page.request.get(String(ready(service, 'consoleLoginUrl')), { maxRedirects: 0 })
    expect(signIn.status(), 'signing in').toBe(303)
    const created = await fetch(`${base}/api/v2/public/sdk/paymaster`, {
      method: 'POST',
      headers: { authToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'deep-dapp',
        type: 'HYBRID',
        chainId: ready(service, 'chainId'),
        version: '1',
      }),
    }).then((res) => res.json() as Promise<{ data?: { apiKey: string } }>)
    const apiKey = created.data?.apiKey ?? ''
    // Its dot reads like a file extension to a server that guesses files by name.
    expect(apiKey).toContain('.')

    const load = watchConsoleLoad(page)
    const routes: { path: string; nav: string; shows: () => Promise<void> }[] = [
      {
        path: `paymasters/${encodeURIComponent(apiKey)}/policies`,
        nav: 'paymasters',
        shows: async () => {
          await expect(page.getByTestId('paymaster-page')).toBeVisible()
          await expect(page.getByRole('heading', { name: 'deep-dapp' })).toBeVisible()
        },
      },
      {
        path: `activity/op:0x${'ab'.repeat(32)}`,
        nav: 'activity',
        shows: () => expect(page.getByTestId('page-title')).toBeVisible(),
      },
      {
        path: 'settings',
        nav: 'settings',
        shows: () => expect(page.getByTestId('settings-form')).toBeVisible(),
      },
    ]
    for (const route of routes) {
      for (const how of ['opened', 'reloaded'] as const) {
        await test.step(`/console/${route.path} ${how}`, async () => {
          if (how === 'opened') await page.goto(`${base}/console/${route.path}`)
          else await page.reload()
          // The app shell: connected, its navigation drawn, the route's own screen.
          await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
          await expect(page.getByTestId(`nav-${route.nav}`)).toHaveClass(/nav-item-active/)
          await route.shows()
        })
      }
    }
    expect(load.failures, 'console files that failed to load').toEqual([])
    expect(load.errors, 'uncaught errors in the console page').toEqual([])
  } finally {
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach('service-stderr.txt', {
        body: service.logs() || '(empty)',
        contentType: 'text/plain',
      })
    await service.stop()
  }
}

/** A project folder holding this test's own build, for electron-builder. */
function stageOwnBuild(build: DesktopBuild): string {
  const projectDir = path.join(temp, 'package-project')
  stagePackagingProject({ projectDir, builtOut: build })
  return projectDir
}

const ready = (service: { ready: Record<string, unknown> }, key: string) => service.ready[key]

test('npm run build:renderer (vite, then publishConsole): deep routes load and reload', async ({
  page,
}, testInfo) => {
  const consoleDir = await buildConsoleWithVite(path.join(temp, 'build-renderer'))
  await expectDeepRoutesLoad(page, consoleDir, testInfo)
})

test('npm run build (electron-vite, then publishConsole): deep routes load and reload', async ({
  page,
}, testInfo) => {
  const build = await electronViteBuild()
  // electron-vite's production base is './'; the console's config puts back the absolute /console/.
  expect(readFileSync(path.join(build.renderer, 'index.html'), 'utf8')).toMatch(/src="\/console\/assets\//)
  await expectDeepRoutesLoad(page, build.renderer, testInfo)
})

test('the headless stale check (npm run serve, npm start without Electron): builds, rebuilds when stale; deep routes load', async ({
  page,
}, testInfo) => {
  const checkout = path.join(temp, 'checkout')
  stageConsoleCheckout(checkout)
  const first = await runConsoleStaleCheck(checkout)
  expect(first.built, 'a missing console is built').toBe(true)
  const index = path.join(first.consoleDir, 'index.html')
  const firstIndex = readFileSync(index, 'utf8')
  expect((await runConsoleStaleCheck(checkout)).built, 'a current console is left alone').toBe(false)
  // A source edited after the build (new styles: a new stylesheet name) makes it stale.
  const styles = path.join(checkout, 'src', 'renderer', 'src', 'styles.css')
  writeFileSync(styles, `${readFileSync(styles, 'utf8')}\n.build-paths-probe { outline: 1px solid red; }\n`)
  const builtAt = statSync(index).mtimeMs
  const second = await runConsoleStaleCheck(checkout)
  expect(second.built, 'a stale console is rebuilt').toBe(true)
  expect(statSync(index).mtimeMs).toBeGreaterThan(builtAt)
  expect(readFileSync(index, 'utf8')).not.toBe(firstIndex)
  await expectDeepRoutesLoad(page, second.consoleDir, testInfo)
})

test('the packaged app (electron-builder --dir): the console in app.asar, deep routes load and reload', async ({
  page,
}, testInfo) => {
  test.skip(!canPackageLinuxDir, 'electron-builder --dir runs here for Linux x64/arm64 only')
  // The package of the repository's current build is the one the packaging test reads (made once, by whichever
  // comes first); otherwise this test packs its own build.
  const packaged = repositoryBuildIsCurrent
    ? await packageRepositoryOnce()
    : await packageLinuxDir({
        tempDir: path.join(temp, 'package'),
        projectDir: stageOwnBuild(await electronViteBuild()),
      })
  const files = asar
    .listPackage(packaged.archive, { isPack: false })
    .map((file) => file.replaceAll('\\', '/'))
  expect(files).toContain('/out/renderer/index.html')
  const extracted = path.join(temp, 'package', 'app')
  asar.extractAll(packaged.archive, extracted)
  await expectDeepRoutesLoad(page, path.join(extracted, 'out', 'renderer'), testInfo)
})
