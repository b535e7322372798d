import { expect, screenshot, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'

test('create a dApp: apiKey, paymaster URL, listed; a duplicate name shows the server message', async ({
  app,
  service,
  api,
}) => {
  const ui = new ConsoleApp(app)
  const paymasters = new PaymastersScreen(app)
  await ui.open('paymasters')
  await expect(app.getByTestId('paymasters-empty')).toBeVisible()

  const apiKey = await paymasters.create('demo-dapp')
  expect(apiKey).toMatch(/\S{8,}/)
  await expect(app.getByTestId('paymaster-url')).toHaveText(
    service.paymasterUrlTemplate.replace('{apiKey}', apiKey),
  )
  await screenshot(app, 'paymaster-overview')

  // The REST API sees the same dApp.
  const listed = await api.rest<{ name: string; apiKey: string }[]>('GET', '/api/v2/public/sdk/paymaster')
  expect(listed.body.data).toEqual([expect.objectContaining({ name: 'demo-dapp', apiKey })])

  await ui.open('paymasters')
  await expect(paymasters.row('demo-dapp')).toContainText(apiKey)
  await app.getByTestId('paymaster-name').fill('demo-dapp')
  await app.getByTestId('paymaster-create').click()
  await expect(paymasters.createError()).toHaveText('paymaster_name_exists')

  await app.getByTestId('paymaster-name').fill('other')
  await app.getByTestId('paymaster-chain').selectOption('1')
  await app.getByTestId('paymaster-create').click()
  await expect(paymasters.createError()).toHaveText('Chain ID not supported')
  await screenshot(app, 'paymasters')
})

test('the policies tab edits limits, validity window and ERC20 premium (or says it is not available yet)', async ({
  app,
}) => {
  const paymasters = new PaymastersScreen(app)
  await new ConsoleApp(app).open('paymasters')
  await paymasters.create('policy-dapp')
  await paymasters.openTab('policies')
  const editor = app.getByTestId('policies-editor')
  const notAvailable = app.getByTestId('not-available')
  await expect(editor.or(notAvailable)).toBeVisible()
  if (await editor.isVisible()) {
    await app.getByTestId('limit-add').click()
    await app.getByTestId('limit-threshold').fill('5')
    await app.getByTestId('policy-premium').fill('12.5')
    await app.getByTestId('policies-save').click()
    await expect(app.getByTestId('policies-saved')).toBeVisible()
  }
  await screenshot(app, 'paymaster-policies')
})
