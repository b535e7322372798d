import { expect, screenshot, test } from './fixtures'
import { ActivityScreen } from './pages/ActivityScreen'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'

/** One service of two chains (`opstation serve --chains 31337,31338`): the console shows and acts on each. */
test.use({ serviceArgs: ['--chains', '31337,31338'] })

test('two chains: both listed with their states and URLs; a dApp and the same sponsored operation on the second chain (sent again, then on every chain) show their chain, Activity filters by chain, and Time moves the chain picked, whose clock the navigation then shows', async ({
  app,
  service,
}) => {
  const [first, second] = service.chains
  expect([first?.chainId, second?.chainId]).toEqual([31337, 31338])
  const ui = new ConsoleApp(app)

  // Overview and the sidebar: each chain's state, and its own URLs.
  for (const chain of service.chains) {
    await expect(app.getByTestId(`chain-state-${chain.chainId}`)).toHaveText('ready')
    await expect(app.getByTestId(`chain-bundler-${chain.chainId}`)).toHaveText(chain.bundlerUrl)
    await expect(app.getByTestId(`chain-paymaster-${chain.chainId}`)).toHaveText(chain.paymasterUrlTemplate)
    await expect(app.getByTestId(`chain-rpc-${chain.chainId}`)).toHaveText(chain.rpcUrl)
    await expect(app.getByTestId(`nav-chain-${chain.chainId}`)).toHaveText(`chain ${chain.chainId} ready`)
  }
  await screenshot(app, 'several-chains-overview')

  // A dApp on each chain, the chain picked in the form; each lists its chain and its chain's paymaster URL.
  await ui.open('paymasters')
  const paymasters = new PaymastersScreen(app)
  await paymasters.create('shop')
  await ui.open('paymasters')
  await app.getByTestId('paymaster-chain').selectOption('31338')
  const secondKey = await paymasters.create('shop')
  await expect(app.getByTestId('paymaster-url')).toHaveText(
    second?.paymasterUrlTemplate.replace('{apiKey}', secondKey) ?? '',
  )
  await expect(app.getByTestId('paymaster-bundler-url')).toHaveText(second?.bundlerUrl ?? '')
  await ui.open('paymasters')
  const rows = app.getByTestId('paymaster-row-shop')
  await expect(rows.getByTestId('paymaster-chain-id')).toHaveText(['31337', '31338'])
  await expect(rows.getByTestId('paymaster-gas-tank')).toHaveText(['10 ETH', '10 ETH'])

  // The Sandbox sends a sponsored operation on the first chain, then the same one on the second.
  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  await expect(app.getByTestId('sandbox-chain')).toHaveValue('31337')
  await sandbox.createAccount('simple-v07')
  await sandbox.sendSponsoredEmptyCall()
  await expect(app.getByTestId('sandbox-run')).toContainText('Run on chain 31337: sponsored')
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
  await expect(app.getByTestId('sandbox-account-deployed')).toHaveText('yes')

  await app.getByTestId('sandbox-chain').selectOption('31338')
  await expect(app.getByTestId('dapp-picker')).toHaveValue(secondKey)
  // The same account on the second chain, not deployed there yet.
  await expect(app.getByTestId('sandbox-account-deployed')).toContainText('not yet')
  await app.getByTestId('sandbox-send').click()
  await expect(app.getByTestId('sandbox-run')).toContainText('Run on chain 31338: sponsored')
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done', { timeout: 60_000 })
  // Its requests went to the second chain's paymaster and bundler.
  await sandbox.step('sponsor').getByTestId('step-sponsor-toggle').click()
  await expect(sandbox.step('sponsor')).toContainText(`/api/v1/31338/${secondKey}`)
  await sandbox.step('send').getByTestId('step-send-toggle').click()
  await expect(sandbox.step('send')).toContainText('/api/v2/31338/')
  await expect(app.getByTestId('sandbox-done')).toContainText('gas tank paid')
  await expect(app.getByTestId('sandbox-account-deployed')).toHaveText('yes')
  await screenshot(app, 'several-chains-sandbox')

  // The same operation once more on every chain, one after the other, each with its chain's dApp.
  await app.getByTestId('sandbox-send-every-chain').click()
  for (const chainId of [31337, 31338])
    await expect(
      app.getByTestId(`sandbox-chain-run-${chainId}`).getByTestId('sandbox-chain-run-outcome'),
    ).toHaveText('mined', { timeout: 60_000 })

  // Activity: both operations, each with its chain; the chain filter keeps one chain's.
  await ui.open('activity')
  const activity = new ActivityScreen(app)
  const mined = activity.feedRow('op', 'mined')
  await expect(mined.getByTestId('feed-chain')).toHaveText(['31338', '31337', '31338', '31337'])
  await app.getByTestId('activity-chain').selectOption('31338')
  await expect(mined.getByTestId('feed-chain')).toHaveText(['31338', '31338'])
  await expect(activity.feedRow('decision', 'sponsored').getByTestId('feed-chain')).toHaveText([
    '31338',
    '31338',
  ])
  await activity.open('op', 'mined')
  await expect(activity.detail().getByTestId('operation-status')).toHaveText('mined')
  await app.getByTestId('activity-chain').selectOption('31337')
  await expect(mined.getByTestId('feed-chain')).toHaveText(['31337', '31337'])
  await screenshot(app, 'several-chains-activity')

  // Time and snapshots: the chain picked moves, the other stays.
  await ui.open('time')
  const clocks = app.getByTestId('time-clocks')
  await expect(app.getByTestId('time-chain')).toHaveValue('31337')
  await expect(clocks).toHaveAttribute('data-chain-id', '31337')
  const firstBlock = await app.getByTestId('block-number').textContent()
  await app.getByTestId('time-chain').selectOption('31338')
  await expect(clocks).toHaveAttribute('data-chain-id', '31338')
  const secondBlock = Number(await app.getByTestId('block-number').textContent())
  await app.getByTestId('mine-blocks-count').fill('3')
  await app.getByTestId('mine-blocks').click()
  await expect(app.getByTestId('time-message')).toHaveText('3 blocks mined')
  await expect(app.getByTestId('block-number')).toHaveText(String(secondBlock + 3))
  // A day ahead on the second chain: the navigation shows that chain's clock, and none for the first.
  await expect(app.getByTestId('nav-chain-clock')).toHaveCount(0)
  await app.getByTestId('advance-amount').fill('1')
  await app.getByTestId('advance-unit').selectOption({ label: 'days' })
  await app.getByTestId('advance-time').click()
  await expect(app.getByTestId('time-message')).toHaveText('Chain time advanced by 1 d')
  await expect(app.getByTestId('nav-chain-clock-31338')).toContainText(
    /^chain 31338 .*\+1 d( \d+ s)? from wall time$/,
  )
  await expect(app.getByTestId('nav-chain-clock-31337')).toHaveCount(0)
  await app.getByTestId('time-chain').selectOption('31337')
  await expect(clocks).toHaveAttribute('data-chain-id', '31337')
  await expect(app.getByTestId('block-number')).toHaveText(firstBlock ?? '')
  await expect(app.getByTestId('nav-chain-clock-31338')).toBeVisible()
  await expect(app.getByTestId('nav-chain-clock-31337')).toHaveCount(0)
})
