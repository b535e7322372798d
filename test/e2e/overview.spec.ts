import { expect, screenshot, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'

test('overview shows the URLs a dApp needs, with copy buttons, snippets and a hidden auth token', async ({
  app,
  service,
}) => {
  const ui = new ConsoleApp(app)
  await expect(ui.title()).toHaveText('Overview')
  await expect(app.getByTestId('getting-started')).toBeVisible()
  await expect(app.getByTestId('start-dapp')).toHaveAttribute('data-done', 'false')
  await expect(app.getByTestId('url-bundler')).toHaveText(service.bundlerUrl)
  await expect(app.getByTestId('url-paymaster-template')).toHaveText(service.paymasterUrlTemplate)
  await expect(app.getByTestId('url-console')).toHaveText(service.consoleUrl)
  await expect(app.getByTestId('url-bundler-copy')).toBeVisible()
  await expect(app.getByTestId('chain-id')).toHaveText(String(service.chainId))

  // The token stays hidden until revealed.
  await expect(app.getByTestId('auth-token')).not.toContainText(service.authToken)
  await app.getByTestId('auth-token-reveal').click()
  await expect(app.getByTestId('auth-token')).toHaveText(service.authToken)

  await expect(app.getByTestId('snippet-code')).toContainText('createSmartAccountClient')
  await expect(app.getByTestId('snippet-code')).toContainText(service.bundlerUrl)
  await app.getByTestId('snippet-tab-viem').click()
  await expect(app.getByTestId('snippet-code')).toContainText('createBundlerClient')
  await app.getByTestId('auth-token-reveal').click()
  await screenshot(app, 'overview')
})

test('a client-side route loads the app shell directly', async ({ page, service }) => {
  await page.goto(`${service.consoleUrl}settings`)
  await expect(page.getByTestId('settings-page')).toBeVisible()
  await expect(page.getByTestId('setting-data-dir')).toContainText(service.dataDir)
})
