import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { spawnCli } from '../helpers/spawnCli'
import { startPlainAnvil } from '../helpers/startPlainAnvil'
import { expect, screenshot, testWithoutService as test } from './fixtures'

/** Waits until the service has looked at its node `count` more times (its status' `chain.checkedAt` moved on). */
async function waitForLooks(page: Page, dashboardUrl: string, count: number): Promise<void> {
  const readCheckedAt = async () => {
    const res = await page.request.get(`${dashboardUrl}/console/api/status`)
    expect(res.status()).toBe(200)
    return ((await res.json()) as { chain: { checkedAt?: string } }).chain.checkedAt
  }
  const seen = new Set([await readCheckedAt()])
  await expect
    .poll(
      async () => {
        seen.add(await readCheckedAt())
        return seen.size
      },
      { timeout: 15_000, intervals: [200] },
    )
    .toBeGreaterThan(count)
}

test('an external node that stops shows as unreachable in the sidebar and the Overview, logged once; a fresh restart shows the recovery', async ({
  page,
}) => {
  let anvil = await startPlainAnvil(31337)
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-e2e-node-'))
  const cli = await spawnCli(
    ['--port', '0', '--data-dir', dataDir, '--rpc-url', anvil.url, '--log-level', 'warn'],
    {
      timeoutMs: 90_000,
      env: { ...process.env, FORCE_COLOR: '0' },
    },
  )
  try {
    await page.goto(String(cli.ready.consoleLoginUrl))
    const sidebar = page.getByTestId('nav-status')
    await expect(sidebar).toContainText('chain ready')

    await anvil.stop()
    await expect(sidebar).toContainText('chain unreachable', { timeout: 5_000 })
    await expect(page.getByTestId('chain-state')).toHaveText('unreachable')
    await expect(page.getByTestId('chain-message')).toContainText(`the node at ${anvil.url} does not answer`)
    await screenshot(page, 'chain-unreachable')
    // Logged once for the change, not on every look or every refused call: three more looks at the stopped node.
    await waitForLooks(page, String(cli.ready.dashboardUrl), 3)
    expect(cli.stderr().match(/unreachable since/g)).toHaveLength(1)

    anvil = await startPlainAnvil(31337, { port: anvil.port })
    await expect(sidebar).toContainText('chain ready', { timeout: 30_000 })
    await expect(page.getByTestId('chain-message')).toContainText('the node was reset at')
    await screenshot(page, 'chain-recovered')
  } finally {
    cli.child.kill('SIGTERM')
    await cli.exited
    await anvil.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
})
