import { expect, screenshot, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'

test('settings: bundling mode, validation, webhook time-out and several chains are saved and shown after a reload', async ({
  app,
  api,
}) => {
  const ui = new ConsoleApp(app)
  await ui.open('settings')
  await expect(app.getByTestId('settings-form')).toBeVisible()
  await app.getByTestId('setting-bundling-mode').selectOption('manual')
  await app.getByTestId('setting-validation').selectOption('unsafe')
  await app.getByTestId('setting-webhook-timeout').fill('1500')
  await app.getByTestId('settings-save').click()
  await expect(app.getByTestId('settings-saved')).toBeVisible()

  const saved = await api.json<{
    data: { effective: { bundlingMode: string; unsafe: boolean; webhookTimeoutMs: number } }
  }>('GET', '/console/api/settings')
  expect(saved.body.data.effective).toMatchObject({
    bundlingMode: 'manual',
    unsafe: true,
    webhookTimeoutMs: 1500,
  })

  await app.reload()
  await expect(app.getByTestId('setting-bundling-mode')).toHaveValue('manual')
  await expect(app.getByTestId('setting-webhook-timeout')).toHaveValue('1500')

  // The server's message for a bad value.
  await app.getByTestId('setting-webhook-timeout').fill('5')
  await app.getByTestId('settings-save').click()
  await expect(app.getByTestId('settings-error-message')).toHaveText('webhookTimeoutMs must be at least 100')
  await app.getByTestId('setting-webhook-timeout').fill('1500')
  await screenshot(app, 'settings')

  // Several chains, in --chains' words, for the next start: a bad entry gets the server's message.
  await app.getByTestId('setting-chain-several').check()
  await app.getByTestId('setting-chains').fill('31337,abc')
  await app.getByTestId('settings-save').click()
  await expect(app.getByTestId('settings-error-message')).toContainText('chains entry "abc" must be')
  await app.getByTestId('setting-chains').fill('31337, 31338')
  await app.getByTestId('settings-save').click()
  await expect(app.getByTestId('settings-saved')).toBeVisible()
  await expect(app.getByTestId('settings-restart')).toBeVisible()
  await app.reload()
  await expect(app.getByTestId('setting-chain-several')).toBeChecked()
  await expect(app.getByTestId('setting-chains')).toHaveValue('31337,31338')
})

test('the auth token can be regenerated; the console keeps working with the new one', async ({
  app,
  service,
  api,
}) => {
  await app.getByTestId('auth-token-regenerate').click()
  await app.getByTestId('auth-token-regenerate-confirm').click()
  await app.getByTestId('auth-token-reveal').click()
  await expect(app.getByTestId('auth-token')).not.toHaveText(service.authToken)
  const fresh = (await app.getByTestId('auth-token').textContent()) ?? ''
  expect(fresh.length).toBeGreaterThanOrEqual(32)
  // The old token is refused now.
  const old = await api.rest('GET', '/api/v2/public/sdk/paymaster')
  expect(old.status).toBe(401)
  await new ConsoleApp(app).open('paymasters')
  await app.getByTestId('paymaster-name').fill('after-regenerate')
  await app.getByTestId('paymaster-create').click()
  await expect(app.getByTestId('paymaster-page')).toBeVisible()
})
