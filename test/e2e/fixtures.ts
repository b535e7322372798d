import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test as base, expect, type Page, type WorkerFixture } from '@playwright/test'
import type { ChainInfo } from '../../src/shared/serviceInfo'
import { CHAIN_TEMPLATE_ENV, copyChainTemplate } from '../helpers/chainTemplate'
import { spawnCli } from '../helpers/spawnCli'

const ROOT = path.resolve(import.meta.dirname, '../..')

export type ServiceUnderTest = {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string
  consoleUrl: string
  /** The console URL with this start's login token (opening it signs the browser in). */
  consoleLoginUrl: string
  bundlerUrl: string
  paymasterUrlTemplate: string
  rpcUrl: string | null
  chainId: number
  /** Every chain the service runs with its URLs (the ready line's `chains`), the first one first. */
  chains: ChainInfo[]
  authToken: string
  dataDir: string
  /** What the service printed on stderr so far. */
  logs: () => string
}

/**
 * `opstation serve --port 0 --data-dir <new tmp>`: the real headless service, as a user runs it, on a data folder
 * that holds the run's deployed chain (globalSetup.ts) and nothing else yet.
 */
async function startService(
  extraArgs: string[] = [],
): Promise<{ service: ServiceUnderTest; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-e2e-'))
  const template = process.env[CHAIN_TEMPLATE_ENV]
  if (template) await copyChainTemplate(template, dataDir)
  const { child, ready, stderr, exited } = await spawnCli(
    ['--port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...extraArgs],
    { timeoutMs: 90_000, env: { ...process.env, FORCE_COLOR: '0' } },
  )
  const service: ServiceUnderTest = {
    baseUrl: String(ready.dashboardUrl),
    consoleUrl: String(ready.consoleUrl),
    consoleLoginUrl: String(ready.consoleLoginUrl),
    bundlerUrl: String(ready.bundlerUrl),
    paymasterUrlTemplate: String(ready.paymasterUrlTemplate),
    rpcUrl: (ready.rpcUrl as string | null) ?? null,
    chainId: Number(ready.chainId),
    chains: (ready.chains as ChainInfo[] | undefined) ?? [],
    authToken: String(ready.authToken),
    dataDir,
    logs: stderr,
  }
  return {
    service,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))
        if ((await Promise.race([exited, timeout])) === 'timeout') {
          child.kill('SIGKILL')
          await exited
        }
      }
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export type WebhookRequest = { method: string; url: string; body: unknown; at: number }

/** A dApp's webhook on localhost: records every call and answers `{arePoliciesVerified: verdict}`. */
export type WebhookServer = {
  url: string
  requests: WebhookRequest[]
  /** What the next calls answer. */
  setVerdict: (verified: boolean) => void
}

async function startWebhookServer(): Promise<{ server: WebhookServer; stop: () => Promise<void> }> {
  const requests: WebhookRequest[] = []
  let verified = true
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = ''
      req.on('data', (d) => {
        text += d
      })
      req.on('end', () => resolve(text))
    })
  const http: Server = createServer(async (req, res) => {
    const text = await readBody(req)
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {}
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', body, at: Date.now() })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ arePoliciesVerified: verified }))
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  return {
    server: { url: `http://127.0.0.1:${port}/sponsor`, requests, setVerdict: (v) => (verified = v) },
    stop: () => new Promise<void>((resolve) => http.close(() => resolve())),
  }
}

/** Direct REST calls, for arranging state a test is not about. */
export type Api = {
  rest: <T = unknown>(
    method: string,
    route: string,
    body?: unknown,
    apiKey?: string,
  ) => Promise<{ status: number; body: { statusCode: number; message: string; data?: T } }>
  json: <T = unknown>(method: string, route: string, body?: unknown) => Promise<{ status: number; body: T }>
}

type Fixtures = {
  /**
   * More `opstation serve` flags for the file's service (`test.use({ serviceArgs: ['--chains', '31337,31338'] })`);
   * none by default.
   */
  serviceArgs: string[]
  service: ServiceUnderTest
  webhook: WebhookServer
  api: Api
  /** The console open on the Overview, connected to `service`. */
  app: Page
}

type WorkerFixtures = { sharedService: ServiceUnderTest }

/**
 * The worker's shared service (testSharingService below), started only for a worker that runs such a test. It is
 * declared on every spec's `test` (and testWithoutService): Playwright runs a file whose worker fixtures differ in a
 * worker of its own, after every other test (such a file was the e2e run's last 20 s, on one worker).
 */
const sharedService: [WorkerFixture<ServiceUnderTest, WorkerFixtures>, { scope: 'worker' }] = [
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  async ({}, use) => {
    const { service, stop } = await startService()
    try {
      await use(service)
    } finally {
      await stop()
    }
  },
  { scope: 'worker' },
]

export const test = base.extend<Fixtures, WorkerFixtures>({
  sharedService,
  serviceArgs: [[], { option: true }],
  service: async ({ serviceArgs }, use, testInfo) => {
    const { service, stop } = await startService(serviceArgs)
    try {
      await use(service)
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('service-stderr.txt', {
          body: service.logs() || '(empty)',
          contentType: 'text/plain',
        })
      }
      await stop()
    }
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  webhook: async ({}, use) => {
    const { server, stop } = await startWebhookServer()
    await use(server)
    await stop()
  },
  // Every page starts signed in, as a browser that opened the printed login URL (its session cookie is the
  // context's); test/e2e/signIn.spec.ts covers a browser without one.
  page: async ({ page, service }, use) => {
    const signIn = await page.request.get(service.consoleLoginUrl, { maxRedirects: 0 })
    if (signIn.status() !== 303) throw new Error(`signing in failed: HTTP ${signIn.status()}`)
    await use(page)
  },
  api: async ({ service }, use) => {
    const json: Api['json'] = async (method, route, body) => {
      const res = await fetch(`${service.baseUrl}${route}`, {
        method,
        headers: {
          authToken: service.authToken,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : undefined }
    }
    const rest: Api['rest'] = async (method, route, body, apiKey) => {
      const res = await fetch(`${service.baseUrl}${route}`, {
        method,
        headers: {
          authToken: service.authToken,
          ...(apiKey ? { apiKey } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return {
        status: res.status,
        body: (await res.json()) as { statusCode: number; message: string; data?: never },
      }
    }
    await use({ rest, json })
  },
  app: async ({ page, service }, use) => {
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(err.message))
    await page.goto(service.consoleUrl)
    await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
    await use(page)
    expect(errors, 'uncaught errors in the console page').toEqual([])
  },
})

/**
 * `test` whose tests share the worker's service (and its chain) instead of starting one each: about 1.6 CPU-s saved
 * per test. A worker runs one test at a time and keeps the service for every such test it runs, from any file, until
 * it stops (after a failed test: a retry gets a fresh one), so no mode is needed and the tests stay fully parallel.
 * A test that shares creates what it looks at under a name no other sharing test uses (its dApp, account, contract,
 * webhook) and asserts on those only, or on a list as it was before plus its own; it picks its dApp and account where
 * a screen would start on the service's first (Contracts, Webhooks, Sandbox). A test that changes what every
 * test sees (settings, the auth token, chain time, snapshots, chains, service flags, `--setup` imports, the sign-in
 * flow) or asserts on a new service's state (empty lists, the getting-started checklist, a quiet event stream) keeps
 * `test`'s own service. Each test still has its own page and session.
 */
export const testSharingService = test.extend({
  service: async ({ sharedService }, use, testInfo) => {
    await use(sharedService)
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('service-stderr.txt', {
        body: sharedService.logs() || '(empty)',
        contentType: 'text/plain',
      })
    }
  },
})

/**
 * Playwright's own `test` (its page signed in to nothing, no service started) with `test`'s worker fixtures: for a
 * spec that starts `opstation serve` its own way, and runs in the same workers as every other spec.
 */
export const testWithoutService = base.extend<Record<never, never>, WorkerFixtures>({ sharedService })

export { expect }

/**
 * Saves a full-page screenshot of the current screen to test-results/screenshots/<name>.png. A screen that fits the
 * viewport is captured as it is: the same image (byte for byte) as a full-page capture, which lays the page out again
 * at its whole size and back, for about 2.5 times the browser's CPU.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize()
  // The page size Playwright's full-page capture takes.
  const size: { width: number; height: number } = await page.evaluate(() => {
    // Evaluated in the page (the project's types have no DOM).
    const { body, documentElement: root } = (globalThis as any).document
    return {
      width: Math.max(
        body.scrollWidth,
        root.scrollWidth,
        body.offsetWidth,
        root.offsetWidth,
        body.clientWidth,
        root.clientWidth,
      ),
      height: Math.max(
        body.scrollHeight,
        root.scrollHeight,
        body.offsetHeight,
        root.offsetHeight,
        body.clientHeight,
        root.clientHeight,
      ),
    }
  })
  const fits = viewport !== null && size.width <= viewport.width && size.height <= viewport.height
  await page.screenshot({
    path: path.join(ROOT, 'test-results', 'screenshots', `${name}.png`),
    fullPage: !fits,
  })
}

/**
 * Gives the console page a clock the test moves (Playwright's page.clock; time still flows as usual until moved) and
 * loads the console again under it: for tests that check what the page's timers do (polls, retries) over seconds
 * without waiting those seconds.
 */
export async function installPageClock(page: Page): Promise<void> {
  await page.clock.install()
  await page.reload()
  await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
}

/**
 * Moves the page's clock (installPageClock) `ms` forward at once, every timer due in that span firing, and returns
 * once every request those timers sent has been seen: the page then sends a marker request, which comes after them.
 */
export async function passPageTime(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms)
  const marker = `/console/api/e2e-marker-${Math.random().toString(36).slice(2)}`
  const seen = page.waitForRequest((request) => request.url().includes(marker))
  await page.evaluate((url) => {
    void fetch(url).catch(() => {})
  }, marker)
  await seen
}
