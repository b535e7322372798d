import { expect, screenshot, test } from './fixtures'
import { ActivityScreen } from './pages/ActivityScreen'
import { ConsoleApp } from './pages/ConsoleApp'
import { ContractsScreen } from './pages/ContractsScreen'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'
import { WebhooksScreen } from './pages/WebhooksScreen'

/**
 * The whole story from the issue: a dApp, a whitelisted contract method, a webhook, a sponsored op from the
 * sandbox that is mined and shows its decision in Activity; then a call that is not whitelisted is declined
 * with the reason.
 */
test('set up sponsorship for a dApp and watch a sponsored op get mined; a non-whitelisted call is not sponsored', async ({
  app,
  webhook,
}) => {
  const ui = new ConsoleApp(app)
  const paymasters = new PaymastersScreen(app)

  // 1. A dApp.
  await ui.open('paymasters')
  await paymasters.create('shop')

  // 2. Its contract: the chain's test token, with only `mint` whitelisted.
  await paymasters.openTab('contracts')
  const contracts = new ContractsScreen(app)
  await app.getByTestId('use-token-tUSDC').click()
  await expect(app.getByTestId('new-method-mint')).toBeChecked()
  await expect(app.getByTestId('new-method-approve')).not.toBeChecked()
  await contracts.submit()
  await expect(contracts.card('tUSDC')).toContainText('Sponsored: mint')

  // 3. A webhook that approves.
  await paymasters.openTab('webhooks')
  await new WebhooksScreen(app).register(webhook.url, 'POST')

  // 4. The sandbox: a new Smart Account v2, a sponsored mint to itself.
  await ui.open('sandbox')
  await ui.pickDapp('shop')
  const sandbox = new SandboxScreen(app)
  const account = await sandbox.createAccount('sa2')
  await sandbox.mode('SPONSORED')
  await sandbox.contractCall('mint', { to: account, amount: '5000000' })
  await sandbox.send()
  await expect(sandbox.step('sponsor')).toHaveAttribute('data-status', 'done')
  await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
  await expect(app.getByTestId('sandbox-done')).toBeVisible()
  await expect(app.getByTestId('sandbox-balance-tUSDC')).toHaveText('5')
  await expect(app.getByTestId('sandbox-account-deployed')).toHaveText('yes')
  expect(webhook.requests.length).toBeGreaterThan(0)
  await sandbox.step('sponsor').getByTestId('step-sponsor-toggle').click()
  await screenshot(app, 'sandbox-sponsored')

  // 5. Activity: mined, sponsored, with the policy steps.
  await app.getByTestId('sandbox-open-activity').click()
  const activity = new ActivityScreen(app)
  await expect(activity.detail().getByTestId('operation-status')).toHaveText('mined')
  await expect(activity.detail().getByTestId('operation-sponsorship')).toHaveText('sponsored')
  await expect(activity.detail().getByTestId('operation-calls')).toContainText(
    'mint(address to, uint256 amount)',
  )
  await expect(activity.detail().getByTestId('policy-step-whitelist')).toHaveAttribute('data-outcome', 'pass')
  await expect(activity.detail().getByTestId('policy-step-webhook')).toHaveAttribute('data-outcome', 'pass')
  await expect(activity.detail().getByTestId('operation-receipt')).toBeVisible()
  await screenshot(app, 'activity-mined')

  // 6. A call that is not whitelisted: declined, with the reason.
  await ui.open('sandbox')
  await sandbox.contractCall('approve', { spender: account, amount: '1' })
  await sandbox.send()
  await expect(sandbox.step('sponsor')).toHaveAttribute('data-status', 'failed')
  await expect(app.getByTestId('step-sponsor-error')).toContainText('Not sponsored')
  await expect(app.getByTestId('sandbox-declined')).toContainText('not a whitelisted method')
  await screenshot(app, 'sandbox-not-sponsored')

  await ui.open('activity')
  await activity.open('decision', 'not sponsored')
  await expect(activity.detail().getByTestId('decision-verdict')).toHaveText('not sponsored')
  await expect(activity.detail().getByTestId('decision-reason')).toContainText('not a whitelisted method')
  await expect(activity.detail().getByTestId('policy-step-whitelist')).toHaveAttribute('data-outcome', 'fail')
  await screenshot(app, 'activity-not-sponsored')

  // The dApp's chart counts both decisions and the gas the mined one spent.
  await ui.open('paymasters')
  await app.getByTestId('paymaster-link-shop').click()
  await expect(app.getByTestId('sponsorship-chart')).toContainText('sponsored 1')
  await expect(app.getByTestId('sponsorship-chart')).toContainText('not sponsored 1')
  await expect(app.getByTestId('gas-tank-balance')).not.toHaveText('10 ETH')
  await screenshot(app, 'paymaster-chart')

  // The getting-started checklist is complete, so it gets out of the way.
  await ui.open('overview')
  await expect(app.getByTestId('url-bundler')).toBeVisible()
  await expect(app.getByTestId('getting-started')).toHaveCount(0)
})
