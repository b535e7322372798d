import { expect, screenshot, test, testSharingService } from './fixtures'
import { ActivityScreen } from './pages/ActivityScreen'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'

// Its own service: the Sandbox of a new service (no account yet; the list is the service's).
test('self-paid: a SimpleAccount funded from the faucet sends ETH with raw callData, stepping one request at a time', async ({
  app,
}) => {
  const ui = new ConsoleApp(app)
  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  await expect(app.getByTestId('sandbox-no-account')).toBeVisible()
  await sandbox.createAccount('simple')
  await app.getByTestId('faucet-eth').click()
  await expect(app.getByTestId('faucet-message')).toHaveText('Sent 1 ETH.')
  await expect(app.getByTestId('sandbox-balance-eth')).toHaveText('1 ETH')

  await sandbox.mode('SELF')
  await sandbox.rawCall('0x000000000000000000000000000000000000dEaD', '0x')
  await app.getByTestId('call-value').fill('0.25')
  await app.getByTestId('sandbox-start').click()

  // Step through: each click runs one request and shows it.
  for (const step of ['build', 'fees', 'estimate', 'sign', 'send', 'receipt']) {
    await app.getByTestId('run-next').click()
    await expect(sandbox.step(step)).toHaveAttribute('data-status', 'done', { timeout: 60_000 })
  }
  await expect(sandbox.step('estimate').getByTestId('step-estimate-note')).toContainText('verification')
  await sandbox.step('estimate').getByTestId('step-estimate-toggle').click()
  await expect(sandbox.step('estimate')).toContainText('eth_estimateUserOperationGas')
  await expect(app.getByTestId('sandbox-done')).toContainText('paid in ETH')
  // 1 ETH − 0.25 ETH − gas
  await expect(app.getByTestId('sandbox-balance-eth')).toHaveText(/^0\.7\d+ ETH$/)
  await screenshot(app, 'sandbox-self-paid')
})

testSharingService(
  'ERC20 mode: the account pays its gas in test tokens through the token paymaster',
  async ({ app }) => {
    const ui = new ConsoleApp(app)
    await ui.open('paymasters')
    await new PaymastersScreen(app).create('erc20-dapp')
    await ui.open('sandbox')
    const sandbox = new SandboxScreen(app)
    const account = await sandbox.createAccount('sa2')
    await app.getByTestId('faucet-tUSDC').click()
    await expect(app.getByTestId('sandbox-balance-tUSDC')).toHaveText('100')

    await sandbox.mode('ERC20')
    await sandbox.rawCall(account, '0x')
    await sandbox.send()
    await expect(sandbox.step('quote')).toHaveAttribute('data-status', 'done')
    await expect(sandbox.step('sponsor')).toHaveAttribute('data-status', 'done')
    await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
    await expect(app.getByTestId('sandbox-done')).toContainText('paid in tokens')
    // Some tUSDC went to the token paymaster as the fee.
    await expect(app.getByTestId('sandbox-balance-tUSDC')).not.toHaveText('100')
    await screenshot(app, 'sandbox-erc20')
  },
)

testSharingService(
  'a failing operation shows the AA error in plain words with the likely fix',
  async ({ app }) => {
    const ui = new ConsoleApp(app)
    await ui.open('sandbox')
    const sandbox = new SandboxScreen(app)
    const account = await sandbox.createAccount('simple')
    // Self-paid without any ETH: the EntryPoint refuses with AA21.
    await sandbox.mode('SELF')
    await sandbox.rawCall('0x000000000000000000000000000000000000dEaD')
    await sandbox.send()
    const failed = app.locator('[data-testid^="step-"][data-status="failed"]')
    await expect(failed).toHaveCount(1)
    await expect(failed.getByTestId('aa-explanation')).toContainText('AA21')
    await expect(failed.getByTestId('aa-explanation')).toContainText('Fund the account')
    await screenshot(app, 'sandbox-aa21')

    // The bundler's rejection is in the Activity feed too, explained the same way.
    await ui.open('activity')
    // The account's rows only: the worker's service holds other tests' operations.
    await app.getByTestId('activity-search').fill(account)
    const activity = new ActivityScreen(app)
    await activity.open('op', 'rejected')
    await expect(activity.detail().getByTestId('operation-status')).toHaveText('rejected')
    await expect(activity.detail().getByTestId('operation-failure')).toContainText('AA21')
    await expect(activity.detail().getByTestId('aa-explanation')).toContainText('Likely fix')
    await screenshot(app, 'activity-rejected')
  },
)

// Its own service: it turns the service's bundling mode to manual.
test('manual bundling: the receipt step waits until "Bundle now"', async ({ app, api }) => {
  const changed = await api.json('PATCH', '/console/api/settings', { bundlingMode: 'manual' })
  expect(changed.status).toBe(200)
  const ui = new ConsoleApp(app)
  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  await sandbox.createAccount('simple')
  await app.getByTestId('faucet-eth').click()
  await expect(app.getByTestId('sandbox-balance-eth')).toHaveText('1 ETH')
  await sandbox.mode('SELF')
  await sandbox.rawCall('0x000000000000000000000000000000000000dEaD')
  await app.getByTestId('sandbox-send').click()
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'running', { timeout: 30_000 })
  await expect(app.getByTestId('step-receipt-note')).toContainText('waiting for the bundle')
  await screenshot(app, 'sandbox-waiting')
  await app.getByTestId('sandbox-bundle-now').click()
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await expect(app.getByTestId('sandbox-done')).toBeVisible()
})

for (const [type, version, label, firstOp, accountType] of [
  [
    'simple-v07',
    '0.7',
    'SimpleAccount v0.7',
    'deploys the account (factory, factoryData)',
    'SimpleAccount v0.7',
  ],
  ['7702', '0.8', 'EIP-7702 account', 'carries the EIP-7702 authorization', 'Simple7702Account (EIP-7702)'],
  [
    '7702-v09',
    '0.9',
    'EIP-7702 account',
    'carries the EIP-7702 authorization',
    'Simple7702Account v0.9 (EIP-7702)',
  ],
  ['safe', '0.7', 'Safe 1.4.1', 'deploys the account (factory, factoryData)', 'Safe 1.4.1'],
] as const) {
  testSharingService(
    `sponsored on EntryPoint v${version}: a new ${label} is deployed (or delegated) and calls, and Activity shows its version and account type`,
    async ({ app }) => {
      const ui = new ConsoleApp(app)
      await ui.open('paymasters')
      // A name of its own: two of these tests are on v0.7.
      await new PaymastersScreen(app).create(`dapp-${type}`)
      await ui.open('sandbox')
      const sandbox = new SandboxScreen(app)
      await sandbox.createAccount(type)
      await expect(app.getByTestId('sandbox-account-entry-point')).toHaveText(`v${version}`)
      await expect(app.getByTestId('sandbox-account-deployed')).toContainText('not yet')
      await sandbox.sendSponsoredEmptyCall()
      await expect(sandbox.step('sponsor')).toHaveAttribute('data-status', 'done')
      await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
      await expect(sandbox.step('build').getByTestId('step-build-note')).toContainText(firstOp)
      await expect(app.getByTestId('sandbox-done')).toContainText('gas tank paid')
      await expect(app.getByTestId('sandbox-account-deployed')).toHaveText('yes')
      await screenshot(app, `sandbox-sponsored-v${version}-${type}`)

      await app.getByTestId('sandbox-open-activity').click()
      const activity = new ActivityScreen(app)
      await expect(activity.detail().getByTestId('operation-status')).toHaveText('mined')
      await expect(activity.detail().getByTestId('operation-entry-point')).toContainText(`v${version}`)
      await expect(activity.detail().getByTestId('operation-account')).toHaveText(accountType)
    },
  )
}

testSharingService(
  'an account-zoo kind on v0.6 is picked from the grouped create buttons, deployed sponsored, and named in Activity',
  async ({ app }) => {
    const ui = new ConsoleApp(app)
    await ui.open('paymasters')
    await new PaymastersScreen(app).create('dapp-coinbase')
    await ui.open('sandbox')
    const sandbox = new SandboxScreen(app)
    await sandbox.createAccountWith('sandbox-create-coinbase')
    await expect(app.getByTestId('sandbox-account-picker')).toContainText('Coinbase Smart Wallet v1 (v0.6)')
    await expect(app.getByTestId('sandbox-account-entry-point')).toHaveText('v0.6')
    await expect(app.getByTestId('sandbox-safe-mode-refusal')).toHaveCount(0)
    await sandbox.sendSponsoredEmptyCall()
    await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
    await expect(sandbox.step('build').getByTestId('step-build-note')).toContainText(
      'deploys the account (initCode)',
    )
    await expect(app.getByTestId('sandbox-account-deployed')).toHaveText('yes')
    await screenshot(app, 'sandbox-zoo-kind')

    await app.getByTestId('sandbox-open-activity').click()
    const activity = new ActivityScreen(app)
    await expect(activity.detail().getByTestId('operation-status')).toHaveText('mined')
    await expect(activity.detail().getByTestId('operation-account')).toHaveText('Coinbase Smart Wallet v1')
  },
)

testSharingService(
  'Trust (Barz) says it needs unsafe mode, and the refused send step says why and how to run it',
  async ({ app }) => {
    const ui = new ConsoleApp(app)
    await ui.open('paymasters')
    await new PaymastersScreen(app).create('dapp-trust')
    await ui.open('sandbox')
    const sandbox = new SandboxScreen(app)
    await sandbox.createAccountWith('sandbox-create-trust')
    const notice = app.getByTestId('sandbox-safe-mode-refusal')
    await expect(notice).toContainText('[STO-033]')
    await expect(notice).toContainText('The service is in safe mode')
    await sandbox.sendSponsoredEmptyCall()
    await expect(sandbox.step('send')).toHaveAttribute('data-status', 'failed')
    await expect(sandbox.step('send').getByTestId('step-send-error')).toContainText('[STO-033]')
    await expect(sandbox.step('send').getByTestId('step-send-refusal')).toContainText('Settings → Validation')
    await screenshot(app, 'sandbox-trust-safe-mode')
  },
)
