import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, installPageClock, passPageTime, screenshot, test } from './fixtures'

/** The embedded anvil's pid, as this test's service recorded it in its data folder (rpcUrl is the service's). */
function findAnvilPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8'))
}

test('the sidebar follows a chain restart from pushed events (no status polling while the stream is open)', async ({
  app,
  service,
}) => {
  await installPageClock(app)
  const status = app.getByTestId('nav-status')
  await expect(status).toContainText('chain ready')
  await app.getByTestId('nav-activity').click()
  await expect(app.getByTestId('activity-live')).toHaveAttribute('data-state', 'open')
  const statusCalls: number[] = []
  app.on('request', (request) => {
    if (request.url().endsWith('/console/api/status')) statusCalls.push(Date.now())
  })

  process.kill(findAnvilPid(service.dataDir), 'SIGKILL')
  await expect(status).toHaveAttribute('title', /^anvil restarted in \d+ ms$/, { timeout: 20_000 })
  await expect(status).toContainText('chain ready')
  // Every status read after the kill was caused by a pushed chain.status event, never by the 1 s / 5 s poll.
  expect(statusCalls.length).toBeGreaterThan(0)
  expect(statusCalls.length).toBeLessThanOrEqual(3)
  const afterRestart = statusCalls.length
  // Six seconds of the page's time: its status poll (every 5 s when the stream is closed) would read once.
  await passPageTime(app, 6000)
  expect(statusCalls.length, 'no polling (every 5 s) while the stream is open').toBe(afterRestart)
  await screenshot(app, 'chain-restarted')
})
