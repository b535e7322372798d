import { expect, testWithoutService as test } from './fixtures'

/**
 * The browser the console tests run in (playwright.config.ts starts it through test/e2e/chromium.sh): without the
 * omnibox popup's renderer, which Chromium preloads for every browser context and no test uses, and with every
 * feature Playwright disables still disabled (Chromium reads only the last --disable-features switch, so the script
 * must pass Playwright's list and its own as one).
 */
test('the test browser preloads no omnibox popup and keeps the features Playwright disables', async ({
  browser,
  page,
}) => {
  await page.goto('chrome://version')
  const commandLine = await page.locator('#command_line').innerText()
  const switches = commandLine.split(/\s+/).filter((arg) => arg.startsWith('--disable-features='))
  expect(switches).toHaveLength(1)
  const disabled = switches[0]!.slice('--disable-features='.length).split(',')
  // Two of Playwright's own (chromiumSwitches.ts) and the two the script adds.
  expect(disabled).toEqual(
    expect.arrayContaining(['PaintHolding', 'HttpsUpgrades', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']),
  )
  const cdp = await browser.newBrowserCDPSession()
  const { targetInfos } = await cdp.send('Target.getTargets')
  expect(targetInfos.map((target) => target.url).filter((url) => url.includes('omnibox'))).toEqual([])
  await cdp.detach()
})
