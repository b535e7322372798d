import { expect, screenshot, testSharingService as test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { WebhooksScreen } from './pages/WebhooksScreen'

test('register a webhook, deactivate and activate it, delete it; a bad URL shows the server message', async ({
  app,
  webhook,
  api,
}) => {
  await new ConsoleApp(app).open('paymasters')
  const apiKey = await new PaymastersScreen(app).create('hooks-dapp')
  await new PaymastersScreen(app).openTab('webhooks')
  const hooks = new WebhooksScreen(app)

  await app.getByTestId('webhook-url').fill('ftp://example.test/hook')
  await app.getByTestId('webhook-register').click()
  await expect(hooks.registerError()).toHaveText('webhookUrl must be an http(s) URL')

  const card = await hooks.register(webhook.url, 'POST')
  await expect(card.getByTestId('webhook-status')).toHaveText('active')
  await hooks.toggle(webhook.url)
  await expect(card.getByTestId('webhook-status')).toHaveText('inactive')
  const listed = await api.rest<{ active: boolean }[]>('GET', '/api/v2/public/sdk/webhook', undefined, apiKey)
  expect(listed.body.data?.[0]?.active).toBe(false)
  await hooks.toggle(webhook.url)
  await expect(card.getByTestId('webhook-status')).toHaveText('active')

  // A test call: the response and the verdict, and it lands in the call log.
  await card.getByTestId('webhook-test-open').click()
  await card.getByTestId('webhook-test-data').fill('{"userId": "alice"}')
  await card.getByTestId('webhook-test-send').click()
  await expect(card.getByTestId('webhook-test-verdict')).toHaveText('verified')
  expect(webhook.requests.at(-1)?.body).toMatchObject({ data: expect.objectContaining({ userId: 'alice' }) })
  await expect(app.getByTestId('webhook-call-row')).toHaveCount(1)

  // A webhook that says no.
  webhook.setVerdict(false)
  await card.getByTestId('webhook-test-send').click()
  await expect(card.getByTestId('webhook-test-verdict')).toHaveText('not verified')
  await expect(app.getByTestId('webhook-call-row')).toHaveCount(2)
  await app.getByTestId('webhook-call-row').first().click()
  await expect(app.getByTestId('webhook-call-detail')).toContainText('arePoliciesVerified')
  await screenshot(app, 'webhooks')

  await hooks.delete(webhook.url)
  await expect(app.getByTestId('webhooks-empty')).toBeVisible()
})
