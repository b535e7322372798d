import { expect, test } from './fixtures'

test('a browser without the login URL gets the sign-in page; the printed token signs it in', async ({
  browser,
  service,
}) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${service.consoleUrl}activity`)
  await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'sign-in')
  await expect(page.getByTestId('sign-in-page')).toBeVisible()
  await expect(page.locator('body')).not.toContainText(service.authToken)

  await page.getByTestId('sign-in-token').fill('not-the-token')
  await page.getByTestId('sign-in-submit').click()
  await expect(page.getByTestId('sign-in-error')).toContainText('Invalid login token')

  const token = new URL(service.consoleLoginUrl).searchParams.get('token')!
  await page.getByTestId('sign-in-token').fill(token)
  await page.getByTestId('sign-in-submit').click()
  await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
  await expect(page.getByTestId('page-title')).toHaveText('Activity')
  // The session is a cookie no script can read.
  expect(await page.evaluate('document.cookie')).toBe('')
  await context.close()
})

test('opening the login URL signs in and leaves no token in the address bar', async ({
  browser,
  service,
}) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(service.consoleLoginUrl)
  await expect(page.getByTestId('app-ready')).toHaveAttribute('data-state', 'ready')
  expect(page.url()).toBe(service.consoleUrl)
  const cookies = await context.cookies()
  expect(cookies).toEqual([
    expect.objectContaining({ name: 'opstation_console', httpOnly: true, sameSite: 'Strict' }),
  ])
  await context.close()
})
