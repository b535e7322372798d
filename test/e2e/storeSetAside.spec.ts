import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { spawnCli } from '../helpers/spawnCli'
import { expect, testWithoutService as test } from './fixtures'

test('after a start with --reset-store over an unreadable store, the console says what was set aside', async ({
  page,
}) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-e2e-reset-'))
  await writeFile(path.join(dataDir, 'opstation.json'), '{"schemaVersion": 1, "accounts": [tru')
  const cli = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain', '--reset-store'], {
    timeoutMs: 90_000,
  })
  try {
    const corruptCopy = String(cli.ready.storeSetAside.corruptCopy)
    await page.goto(String(cli.ready.consoleLoginUrl ?? cli.ready.consoleUrl))
    await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
    const banner = page.getByTestId('store-set-aside')
    await expect(banner).toContainText('Started with an empty store')
    await expect(banner).toContainText(corruptCopy)
    await expect(banner).toContainText('invalid JSON')
    // On every screen until dismissed.
    await page.getByTestId('nav-settings').click()
    await expect(banner).toBeVisible()
    await banner.getByRole('button', { name: 'Dismiss' }).click()
    await expect(banner).toHaveCount(0)
  } finally {
    cli.child.kill('SIGTERM')
    await cli.exited
    await rm(dataDir, { recursive: true, force: true })
  }
})
