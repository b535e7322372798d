import type { Page } from '@playwright/test'
import { ENTRY_POINT_VERSIONS } from '../../src/shared/entryPointVersions'
import { expect, screenshot, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { ContractsScreen } from './pages/ContractsScreen'
import { clippedText, horizontalOverflow } from './pages/layoutProbe'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'
import { WebhooksScreen } from './pages/WebhooksScreen'

/**
 * Every screen at the two window widths a reviewer looks at: a full-page PNG of each under
 * test-results/screenshots/<width>/ (artifacts, not committed), and on each a check that no label, column or
 * picker is cut off (see layoutProbe.ts for what counts). Problems are soft assertions, so one run shows them
 * all and still takes every screenshot.
 */
const WIDTHS = [1024, 1440] as const

/** Screenshots the screen, then checks the text of the main area and that the page does not scroll sideways. */
async function review(page: Page, width: number, name: string, area = '.main'): Promise<void> {
  await screenshot(page, `${width}/${name}`)
  expect.soft(await clippedText(page, area), `text cut off on "${name}" at ${width} px`).toEqual([])
  expect
    .soft(await horizontalOverflow(page), `"${name}" scrolls sideways at ${width} px`)
    .toBeLessThanOrEqual(0)
}

/** The time axis of the dApp's sponsorship chart: its first bucket's start, its end and its bucket size. */
async function chartAxis(page: Page): Promise<{ start: number; end: number; step: number }> {
  const chart = page.getByTestId('sponsorship-chart-svg')
  await expect.soft(chart).toBeVisible()
  const read = async (attribute: string) =>
    Number(await chart.getAttribute(attribute, { timeout: 1000 }).catch(() => 0))
  return { start: await read('data-start'), end: await read('data-end'), step: await read('data-step') }
}

for (const width of WIDTHS) {
  test(`every screen at ${width} px wide: screenshots for review, and no label, column or picker cut off`, async ({
    app,
    browser,
    service,
    webhook,
  }) => {
    // A service, two dApps, a sponsored operation and twenty-odd screens.
    test.setTimeout(240_000)
    const startedAt = Date.now()
    await app.setViewportSize({ width, height: 900 })
    const ui = new ConsoleApp(app)
    const paymasters = new PaymastersScreen(app)

    await expect(app.getByTestId('overview-page')).toBeVisible()
    await review(app, width, 'overview-new')

    // Two dApps: each row of the list shows its paymaster URL, copyable, and the chain id whole.
    await ui.open('paymasters')
    const dapps = { shop: await paymasters.create('shop'), 'loyalty-rewards': '' }
    await ui.open('paymasters')
    dapps['loyalty-rewards'] = await paymasters.create('loyalty-rewards')
    await ui.open('paymasters')
    for (const [name, apiKey] of Object.entries(dapps)) {
      const url = service.paymasterUrlTemplate.replace('{apiKey}', apiKey)
      await expect.soft(paymasters.row(name).getByTestId('paymaster-url')).toHaveText(url)
      await expect.soft(paymasters.row(name).getByTestId('paymaster-url-copy')).toBeVisible()
      await expect(paymasters.row(name)).toContainText(String(service.chainId))
    }
    await review(app, width, 'paymasters')

    // A dApp's tabs. Its chart's time axis starts when the dApp was created, not a fixed window before.
    await app.getByTestId('paymaster-link-shop').click()
    // A tank per EntryPoint version.
    await expect(app.getByTestId('gas-tanks').locator('tbody tr')).toHaveCount(ENTRY_POINT_VERSIONS.length)
    const empty = await chartAxis(app)
    expect
      .soft(empty.start, 'the chart starts before the dApp existed')
      .toBeGreaterThanOrEqual(Math.floor(startedAt / empty.step) * empty.step)
    expect.soft(empty.end).toBeGreaterThanOrEqual(Date.now() - empty.step)
    await review(app, width, 'dapp-overview')
    await paymasters.openTab('policies')
    await expect(app.getByTestId('policies-save')).toBeVisible()
    await review(app, width, 'dapp-policies')
    await paymasters.openTab('contracts')
    await app.getByTestId('use-token-tUSDC').click()
    await new ContractsScreen(app).submit()
    await expect(new ContractsScreen(app).card('tUSDC')).toContainText('Sponsored: mint')
    await review(app, width, 'dapp-contracts')
    await paymasters.openTab('webhooks')
    await new WebhooksScreen(app).register(webhook.url, 'POST')
    await review(app, width, 'dapp-webhooks')

    // The screens with a dApp picker in their header: the picker shows the dApp's name and chain whole.
    await ui.open('contracts')
    await ui.pickDapp('shop')
    await expect(new ContractsScreen(app).card('tUSDC')).toBeVisible()
    await review(app, width, 'contracts')
    await ui.open('webhooks')
    await expect(new WebhooksScreen(app).card(webhook.url)).toBeVisible()
    await review(app, width, 'webhooks')

    // The Sandbox before any input: no error anywhere.
    await ui.open('sandbox')
    await expect(app.getByTestId('sandbox-no-account')).toBeVisible()
    await expect.soft(app.locator('.main .field-error, .main .banner-error')).toHaveCount(0)
    await review(app, width, 'sandbox-new')
    const sandbox = new SandboxScreen(app)
    const account = await sandbox.createAccount('sa2')
    await expect.soft(app.locator('.main .field-error, .main .banner-error')).toHaveCount(0)
    await sandbox.mode('SPONSORED')
    await sandbox.contractCall('mint', { to: account, amount: '5000000' })
    await review(app, width, 'sandbox-call')
    await sandbox.send()
    await expect(sandbox.step('receipt')).toHaveAttribute('data-status', 'done')
    await review(app, width, 'sandbox-sent')

    // Activity: the list and the operation's record.
    await app.getByTestId('sandbox-open-activity').click()
    await expect(app.getByTestId('operation-status')).toHaveText('mined')
    await expect(app.getByTestId('operation-sponsorship')).toHaveText('sponsored')
    // Its explanation (phases, call tree, balances, events) is part of the page that must fit.
    await expect(app.getByTestId('operation-explanation')).toHaveAttribute('data-status', 'mined')
    await review(app, width, 'activity-operation')
    await app.getByTestId('activity-feed').locator('[data-testid="feed-decision-sponsored"]').first().click()
    await expect(app.getByTestId('decision-verdict')).toHaveText('sponsored')
    await review(app, width, 'activity-decision')

    // The chart with its first decision: the axis starts at it.
    await ui.open('paymasters')
    await app.getByTestId('paymaster-link-shop').click()
    await expect(app.getByTestId('sponsorship-chart')).toContainText('sponsored 1')
    const filled = await chartAxis(app)
    expect
      .soft(filled.start, 'the chart starts before its first data')
      .toBeGreaterThanOrEqual(Math.floor(startedAt / filled.step) * filled.step)
    await review(app, width, 'dapp-overview-chart')

    await ui.open('overview')
    await expect(app.getByTestId('chain-id')).toHaveText(String(service.chainId))
    await review(app, width, 'overview')
    await ui.open('settings')
    await expect(app.getByTestId('settings-page')).toBeVisible()
    await review(app, width, 'settings')

    // A browser without a session: the sign-in page.
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    const signIn = await context.newPage()
    await signIn.goto(service.consoleUrl)
    await expect(signIn.getByTestId('sign-in-page')).toBeVisible()
    await review(signIn, width, 'sign-in', 'body')
    await context.close()
  })
}
