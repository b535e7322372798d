import { execFileSync } from 'node:child_process'
import { expect, screenshot, test } from './fixtures'

/** The pid listening on the embedded anvil's port (a process this test's service started). */
function findAnvilPid(rpcUrl: string): number {
  const port = new URL(rpcUrl).port
  const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' })
  const pid = /pid=(\d+)/.exec(out)?.[1]
  if (!pid) throw new Error(`no process listens on ${port}: ${out}`)
  return Number(pid)
}

test('the sidebar follows a chain restart from pushed events (no status polling while the stream is open)', async ({
  app,
  service,
}) => {
  const status = app.getByTestId('nav-status')
  await expect(status).toContainText('chain ready')
  await app.getByTestId('nav-activity').click()
  await expect(app.getByTestId('activity-live')).toHaveAttribute('data-state', 'open')
  const statusCalls: number[] = []
  app.on('request', (request) => {
    if (request.url().endsWith('/console/api/status')) statusCalls.push(Date.now())
  })

  process.kill(findAnvilPid(service.rpcUrl!), 'SIGKILL')
  await expect(status).toHaveAttribute('title', /^anvil restarted in \d+ ms$/, { timeout: 20_000 })
  await expect(status).toContainText('chain ready')
  // Every status read after the kill was caused by a pushed chain.status event, never by the 1 s / 5 s poll.
  expect(statusCalls.length).toBeGreaterThan(0)
  expect(statusCalls.length).toBeLessThanOrEqual(3)
  const afterRestart = statusCalls.length
  await app.waitForTimeout(6000)
  expect(statusCalls.length, 'no polling (every 5 s) while the stream is open').toBe(afterRestart)
  await screenshot(app, 'chain-restarted')
})
