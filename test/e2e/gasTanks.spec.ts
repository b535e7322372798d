import { expect, screenshot, testSharingService as test } from './fixtures'
import { ActivityScreen } from './pages/ActivityScreen'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'

const TEN_ETH = (10n * 10n ** 18n).toString()

/**
 * A sponsored v0.7 operation end to end: its decision says v0.7 and shows the paymaster's two gas limits,
 * and the gas is paid from the dApp's v0.7 tank alone (the console and the API agree).
 */
test('a sponsored v0.7 operation: the decision shows v0.7 and the paymaster gas limits; only the v0.7 tank pays', async ({
  app,
  api,
}) => {
  const ui = new ConsoleApp(app)
  const paymasters = new PaymastersScreen(app)
  await ui.open('paymasters')
  const apiKey = await paymasters.create('tanks-v07')
  for (const version of ['0.6', '0.7', '0.8', '0.9'])
    await expect(app.getByTestId(`gas-tank-balance-${version}`)).toHaveText('10 ETH')

  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  const account = await sandbox.createAccount('simple-v07')
  await expect(app.getByTestId('sandbox-account-entry-point')).toHaveText('v0.7')
  await sandbox.sendSponsoredEmptyCall()
  await expect(sandbox.step('sponsor')).toHaveAttribute('data-status', 'done')
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')

  // The decision: a v0.7 badge in the feed and in the detail, and the paymaster's gas limits.
  await ui.open('activity')
  // The account's rows only: the worker's service holds other tests' decisions.
  await app.getByTestId('activity-search').fill(account)
  const activity = new ActivityScreen(app)
  await expect(
    activity.feedRow('decision', 'sponsored').first().getByTestId('entry-point-version'),
  ).toHaveText('v0.7')
  await activity.open('decision', 'sponsored')
  const detail = activity.detail()
  await expect(detail.getByTestId('decision-entry-point')).toHaveText('v0.7')
  for (const field of [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'paymasterVerificationGasLimit',
    'paymasterPostOpGasLimit',
  ])
    await expect(detail.getByTestId(`decision-gas-${field}`)).toHaveText(/^[1-9][\d,]*$/)
  await screenshot(app, 'activity-decision-v07')

  // Only the v0.7 tank paid.
  await ui.open('paymasters')
  await app.getByTestId('paymaster-link-tanks-v07').click()
  await expect(app.getByTestId('gas-tank-balance-0.7')).not.toHaveText('10 ETH')
  await expect(app.getByTestId('gas-tank-balance-0.6')).toHaveText('10 ETH')
  await expect(app.getByTestId('gas-tank-balance-0.8')).toHaveText('10 ETH')
  const tank = await api.rest<{ tanks: { entryPointVersion: string; balanceWei: string }[] }>(
    'GET',
    `/console/api/dapps/${apiKey}/gas-tank`,
  )
  const byVersion = Object.fromEntries(
    (tank.body.data?.tanks ?? []).map((t: { entryPointVersion: string; balanceWei: string }) => [
      t.entryPointVersion,
      BigInt(t.balanceWei),
    ]),
  )
  expect(byVersion['0.6']).toBe(BigInt(TEN_ETH))
  expect(byVersion['0.8']).toBe(BigInt(TEN_ETH))
  expect(byVersion['0.9']).toBe(BigInt(TEN_ETH))
  expect(byVersion['0.7']).toBeLessThan(BigInt(TEN_ETH))
  expect(byVersion['0.7']).toBeGreaterThan(0n)
  await screenshot(app, 'paymaster-gas-tanks-after-v07')
})
