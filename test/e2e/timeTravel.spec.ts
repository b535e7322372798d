import type { TimeView } from '../../src/shared/api/time'
import { expect, screenshot, test } from './fixtures'
import { ActivityScreen } from './pages/ActivityScreen'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'

const DAY = 86_400

test('the Time and snapshots panel: a day ahead in chain time (wall time stays), a snapshot, a sponsored operation, a confirmed revert: the Activity shows it gone and the panel says what was undone', async ({
  app,
}) => {
  const ui = new ConsoleApp(app)
  await ui.open('time')
  await expect(ui.title()).toHaveText('Time and snapshots')
  const chainTime = app.getByTestId('chain-time')
  const wallTime = app.getByTestId('wall-time')
  const unixOf = async (clock: typeof chainTime) => Number(await clock.getAttribute('data-unix'))
  expect(Math.abs((await unixOf(chainTime)) - (await unixOf(wallTime)))).toBeLessThan(60)
  await expect(app.getByTestId('nav-chain-clock')).toHaveCount(0)

  // One day ahead: chain time moves, wall time does not.
  await app.getByTestId('advance-amount').fill('1')
  await app.getByTestId('advance-unit').selectOption({ label: 'days' })
  await app.getByTestId('advance-time').click()
  await expect(app.getByTestId('time-message')).toHaveText('Chain time advanced by 1 d')
  await expect(app.getByTestId('chain-offset')).toHaveText(/^\+1 d( \d+ s)? from wall time$/)
  const offset = (await unixOf(chainTime)) - (await unixOf(wallTime))
  expect(offset).toBeGreaterThanOrEqual(DAY)
  expect(offset).toBeLessThan(DAY + 60)
  expect(Math.abs((await unixOf(wallTime)) - Date.now() / 1000)).toBeLessThan(5)
  // The console's clock in the navigation shows chain time beside wall time.
  await expect(app.getByTestId('nav-chain-clock')).toContainText('from wall time')

  await app.getByTestId('mine-blocks-count').fill('3')
  const blockBefore = Number(await app.getByTestId('block-number').textContent())
  await app.getByTestId('mine-blocks').click()
  await expect(app.getByTestId('time-message')).toHaveText('3 blocks mined')
  await expect(app.getByTestId('block-number')).toHaveText(String(blockBefore + 3))

  await app.getByTestId('snapshot-name').fill('before demo')
  await app.getByTestId('take-snapshot').click()
  await expect(app.getByTestId('time-message')).toHaveText("Snapshot 'before demo' taken")
  await expect(app.getByTestId('snapshot-row-name')).toHaveText(['before demo'])

  // After the snapshot: a dApp, and an operation it sponsors from the Sandbox.
  await ui.open('paymasters')
  await new PaymastersScreen(app).create('after-snapshot')
  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  await sandbox.createAccount('sa2')
  await sandbox.sendSponsoredEmptyCall()
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
  await ui.open('activity')
  const activity = new ActivityScreen(app)
  await expect(activity.feedRow('op', 'mined')).toHaveCount(1, { timeout: 20_000 })
  // The Activity says chain time is ahead, and shows the operation at its chain time, a day ahead, wall time beside.
  await expect(app.getByTestId('chain-time-note')).toContainText('the times below are chain times')
  const time = activity.feedRow('op', 'mined').getByTestId('chain-time')
  await expect(time).toContainText('wall ')
  await expect(time).toHaveAttribute('title', /^chain time .*; wall time /)

  // The revert asks first; confirmed, it says what it undid.
  await ui.open('time')
  const revert = app.getByTestId('snapshot-row').getByRole('button', { name: 'Revert' })
  await revert.click()
  await expect(app.getByTestId('snapshot-row-name')).toHaveText(['before demo'])
  await app.getByRole('button', { name: "Really revert to 'before demo'?" }).click()
  await expect(app.getByTestId('time-message')).toHaveText(
    /^Reverted to 'before demo': 1 operation, 1 dApp, [1-9]\d* sponsorships? undone$/,
  )
  // The revert used the snapshot up; the chain's time went back with it: still about a day ahead of wall time, by
  // less than before (wall time went on while the operation was sent).
  await expect(app.getByTestId('snapshots-empty')).toBeVisible()
  await expect(app.getByTestId('chain-offset')).toContainText('from wall time')
  const offsetAfter = (await unixOf(chainTime)) - (await unixOf(wallTime))
  expect(offsetAfter).toBeGreaterThan(DAY - 600)
  expect(offsetAfter).toBeLessThanOrEqual(offset + 2)
  await screenshot(app, 'time-reverted')

  await ui.open('activity')
  await expect(app.getByTestId('activity-feed')).toBeVisible()
  await expect(activity.feedRow('op', 'mined')).toHaveCount(0)
  await ui.open('paymasters')
  await expect(app.getByText('after-snapshot')).toHaveCount(0)
})

test('the time routes answer only the console: a request without its session or auth token is refused and moves nothing', async ({
  service,
}) => {
  const readTime = async () =>
    (await (
      await fetch(`${service.baseUrl}/console/api/time`, { headers: { authToken: service.authToken } })
    ).json()) as { data: TimeView }
  const before = await readTime()
  for (const [path, body] of [
    ['/console/api/time/advance', { seconds: DAY }],
    ['/console/api/time/snapshots', { name: 'x' }],
    ['/console/api/time/reset', undefined],
  ] as const) {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    expect([401, 403]).toContain(response.status)
  }
  const after = await readTime()
  expect(after.data.snapshots).toEqual([])
  expect(Math.abs(after.data.offsetSeconds - before.data.offsetSeconds)).toBeLessThan(5)
})
