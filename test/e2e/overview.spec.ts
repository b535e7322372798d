import { expect, screenshot, test, testSharingService } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'

// Its own service: the getting-started checklist of a new service (no dApp yet).
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

testSharingService('a client-side route loads the app shell directly', async ({ page, service }) => {
  await page.goto(`${service.consoleUrl}settings`)
  await expect(page.getByTestId('settings-page')).toBeVisible()
  await expect(page.getByTestId('setting-data-dir')).toContainText(service.dataDir)
})

testSharingService(
  'deep console URLs load and reload: a dApp tab (its apiKey holds a dot) and an activity record',
  async ({ page, service, api }) => {
    const created = await api.rest<{ apiKey: string }>('POST', '/api/v2/public/sdk/paymaster', {
      name: 'deep-link',
      type: 'HYBRID',
      chainId: service.chainId,
      version: '1',
    })
    const apiKey = created.body.data!.apiKey
    const failed: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
    })
    await page.goto(`${service.consoleUrl}paymasters/${encodeURIComponent(apiKey)}/policies`)
    await expect(page.getByTestId('paymaster-page')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'deep-link' })).toBeVisible()
    await page.reload()
    await expect(page.getByTestId('paymaster-page')).toBeVisible()
    // The dApp's own page: its last segment is the apiKey, whose dot reads like a file extension.
    await page.goto(`${service.consoleUrl}paymasters/${encodeURIComponent(apiKey)}`)
    await expect(page.getByTestId('paymaster-page')).toBeVisible()
    await page.goto(`${service.consoleUrl}activity/op:0x${'ab'.repeat(32)}`)
    await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
    await page.reload()
    await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
    // No asset of the console, and no favicon request (the icon is inline), fails.
    expect(failed.filter((line) => /\/console\/(assets|[^/]*\.\w+$)|favicon/.test(line))).toEqual([])
  },
)
