import {
  type Api,
  expect,
  installPageClock,
  passPageTime,
  type ServiceUnderTest,
  screenshot,
  test,
  testSharingService,
} from './fixtures'
import { ActivityScreen } from './pages/ActivityScreen'
import { ConsoleApp } from './pages/ConsoleApp'

/**
 * The feed with thousands of records: rows are virtualised (only those in view exist in the DOM), filters
 * and scrolling stay quick. The records come from a stubbed route so the test measures the console, not the
 * service's speed at producing 5,000 decisions; the operations' route answers none, so the feed holds those 5,000
 * alone on the worker's service whatever other tests sent through it.
 */
testSharingService('the activity feed stays fast with thousands of records', async ({ app }) => {
  const now = Date.now()
  const decisions = Array.from({ length: 5000 }, (_, i) => ({
    id: `d-${i}`,
    dappId: 'x',
    time: new Date(now - i * 1000).toISOString(),
    at: new Date(now - i * 1000).toISOString(),
    method: 'pm_sponsorUserOperation',
    mode: 'SPONSORED',
    sender: `0x${(i + 1).toString(16).padStart(40, '0')}`,
    nonce: String(i),
    userOpHash: null,
    sponsored: i % 3 !== 0,
    steps: [
      {
        step: 'whitelist',
        outcome: i % 3 !== 0 ? 'pass' : 'fail',
        detail: i % 3 !== 0 ? 'whitelisted' : 'not whitelisted',
      },
    ],
    reason: i % 3 !== 0 ? null : `approve (0x095ea7b3) is not a whitelisted method of tUSDC (#${i})`,
    apiKey: 'k',
    dappName: 'bulk',
  }))
  await app.route('**/console/api/sponsorship-decisions?*', (route) =>
    route.fulfill({ json: { statusCode: 200, message: 'ok', data: { items: decisions } } }),
  )
  await app.route('**/console/api/user-operations?*', (route) =>
    route.fulfill({ json: { statusCode: 200, message: 'ok', data: { items: [], nextBefore: null } } }),
  )
  await app.route('**/console/api/sponsorship-decisions/*', (route) => {
    const id = route.request().url().split('/').pop()
    return route.fulfill({
      json: { statusCode: 200, message: 'ok', data: decisions.find((d) => d.id === id) },
    })
  })
  const ui = new ConsoleApp(app)
  await ui.open('activity')
  const feed = app.getByTestId('activity-feed')
  await expect(feed).toHaveAttribute('data-rows', '5000')
  const rendered = await feed.locator('.vtable-row').count()
  expect(rendered).toBeLessThan(80)

  // Scroll to the bottom: the oldest rows are rendered on demand.
  const started = Date.now()
  await feed.locator('.vtable-body').evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  await expect(feed.locator('.vtable-row', { hasText: '0x0000…1388' })).toBeVisible()
  expect(Date.now() - started).toBeLessThan(3000)

  // Filtering 5,000 rows.
  await app.getByTestId('activity-status').selectOption('not sponsored')
  await expect(app.getByTestId('activity-count')).toHaveText('1,667 of 5,000')
  await app.getByTestId('activity-search').fill('0x0000000000000000000000000000000000000004')
  await expect(feed).toHaveAttribute('data-rows', '1')
  const activity = new ActivityScreen(app)
  await activity.open('decision', 'not sponsored')
  await expect(activity.detail().getByTestId('decision-reason')).toContainText('#3')
  await screenshot(app, 'activity-thousands')
})

/**
 * The policy steps of a decision in the detail panel: step names stay on one line next to long details
 * (addresses, reasons), which wrap instead. The decision comes from a stubbed route with real step texts (the only
 * decision in the feed, whatever operations other tests sent through the worker's service).
 */
testSharingService(
  'the policy steps table keeps step names on one line beside long details',
  async ({ app }) => {
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    const decision = {
      id: 'd-steps',
      dappId: 'x',
      time: new Date().toISOString(),
      at: new Date().toISOString(),
      method: 'pm_sponsorUserOperation',
      mode: 'SPONSORED',
      sender: '0x4a0d6E8a36B2F1D6b8C5F7A0e5cD2a1B3c4D5e6F',
      nonce: '0',
      userOpHash: null,
      sponsored: false,
      reason: `approve (0x095ea7b3) is not a whitelisted method of tUSDC at ${token} (whitelisted: mint)`,
      steps: [
        { step: 'dapp', outcome: 'pass', detail: 'dApp "shop" is active on chain 31337' },
        {
          step: 'whitelist',
          outcome: 'fail',
          detail: `approve (0x095ea7b3) is not a whitelisted method of tUSDC at ${token} (whitelisted: mint)`,
        },
        { step: 'limits', outcome: 'skip', detail: 'Not evaluated: the whitelist step failed' },
        { step: 'estimate', outcome: 'skip', detail: 'Not evaluated: the whitelist step failed' },
        { step: 'gasTank', outcome: 'skip', detail: 'Not evaluated: the whitelist step failed' },
        { step: 'webhook', outcome: 'skip', detail: 'Not evaluated: the whitelist step failed' },
      ],
      apiKey: 'k',
      dappName: 'shop',
    }
    await app.route('**/console/api/sponsorship-decisions?*', (route) =>
      route.fulfill({ json: { statusCode: 200, message: 'ok', data: { items: [decision] } } }),
    )
    await app.route('**/console/api/sponsorship-decisions/*', (route) =>
      route.fulfill({ json: { statusCode: 200, message: 'ok', data: decision } }),
    )
    await new ConsoleApp(app).open('activity')
    const activity = new ActivityScreen(app)
    await activity.open('decision', 'not sponsored')
    const steps = activity.detail().getByTestId('policy-steps')
    await expect(steps.getByTestId('policy-step-whitelist')).toHaveAttribute('data-outcome', 'fail')
    for (const name of ['dapp', 'whitelist', 'limits', 'estimate', 'gasTank', 'webhook']) {
      const label = steps.getByTestId(`policy-step-${name}`).getByTestId('policy-step-name')
      await expect(label).toHaveText(name)
      const box = await label.boundingBox()
      const lineHeight = await label.evaluate((el) =>
        Number.parseFloat(el.ownerDocument.defaultView?.getComputedStyle(el).lineHeight ?? '20'),
      )
      expect(box?.height, `step name "${name}" on one line`).toBeLessThan(lineHeight * 1.5)
    }
    await screenshot(app, 'activity-policy-steps')
  },
)

/** A decision the paymaster makes without the chain: the dApp is deactivated, the op brings its own gas. */
async function declineOneOperation(service: ServiceUnderTest, api: Api, name: string): Promise<void> {
  const created = await api.rest<{ apiKey: string }>('POST', '/api/v2/public/sdk/paymaster', {
    name,
    type: 'HYBRID',
    chainId: service.chainId,
    version: '1.1.0',
  })
  const apiKey = created.body.data!.apiKey
  expect((await api.json('PATCH', `/console/api/dapps/${apiKey}`, { active: false })).status).toBe(200)
  const op = {
    sender: '0x1111111111111111111111111111111111111111',
    nonce: '0x0',
    initCode: '0x',
    callData: '0x',
    callGasLimit: '0x5208',
    verificationGasLimit: '0x186a0',
    preVerificationGas: '0xc350',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x3b9aca00',
    paymasterAndData: '0x',
    signature: '0x',
  }
  const res = await fetch(service.paymasterUrlTemplate.replace('{apiKey}', apiKey), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'pm_sponsorUserOperation',
      params: [op, { mode: 'SPONSORED', calculateGasLimits: false }],
    }),
  })
  expect(((await res.json()) as { result: { paymasterAndData: string } }).result.paymasterAndData).toBe('0x')
}

// Its own service: it counts the feed's reads on a quiet service, where another test's leftover events would cause some.
test('the feed is pushed: with the event stream open it stops polling and shows a new decision at once', async ({
  app,
  service,
  api,
}) => {
  await installPageClock(app)
  let listCalls = 0
  app.on('request', (request) => {
    if (request.url().includes('/console/api/sponsorship-decisions?')) listCalls++
  })
  await new ConsoleApp(app).open('activity')
  await expect(app.getByTestId('activity-live')).toHaveAttribute('data-state', 'open')
  await expect(app.getByTestId('activity-live')).toHaveText('live')

  // The reads that opening the feed and the stream cause are over once a second of the page's time sends none.
  await expect
    .poll(async () => {
      const before = listCalls
      await passPageTime(app, 1000)
      return listCalls - before
    })
    .toBe(0)
  // Quiet service, open stream: four more seconds of the page's time (its 1.5 s poll would read twice), no read.
  const quietFrom = listCalls
  await passPageTime(app, 4000)
  expect(listCalls - quietFrom).toBe(0)

  await declineOneOperation(service, api, 'pushed')
  const activity = new ActivityScreen(app)
  await expect(activity.feedRow('decision', 'not sponsored')).toBeVisible({ timeout: 3000 })
  await activity.open('decision', 'not sponsored')
  await expect(activity.detail().getByTestId('decision-reason')).toContainText('dApp "pushed" is deactivated')
  await expect(activity.detail().getByTestId('policy-step-dapp')).toHaveAttribute('data-outcome', 'fail')
  await screenshot(app, 'activity-live')
})

testSharingService(
  'the feed falls back to polling when the event stream is refused',
  async ({ page, service, api }) => {
    await page.route(/\/console\/api\/events(\?|$)/, (route) =>
      route.fulfill({ status: 503, contentType: 'text/plain', body: 'no stream here' }),
    )
    await page.goto(service.consoleUrl)
    await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
    await new ConsoleApp(page).open('activity')
    await expect(page.getByTestId('activity-live')).toHaveAttribute('data-state', 'failed')
    await expect(page.getByTestId('activity-live')).toHaveText('polling')

    // The feed narrowed to this test's dApp, empty until the poll brings its decision (other tests' decisions on the
    // worker's service stay out of it).
    await page.getByTestId('activity-search').fill('polled')
    await expect(page.getByTestId('activity-count')).toHaveText(/^0 of /)
    await declineOneOperation(service, api, 'polled')
    await expect(new ActivityScreen(page).feedRow('decision', 'not sponsored')).toBeVisible({ timeout: 5000 })
    await expect(page.getByTestId('nav-status')).toContainText('chain ready')
  },
)
