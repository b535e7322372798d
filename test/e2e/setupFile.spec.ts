import { readFile } from 'node:fs/promises'
import { expect, screenshot, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'

const API_KEY = 'Imported1.7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f'

const asFile = (name: string, content: unknown) => ({
  name,
  mimeType: 'application/json',
  buffer: Buffer.from(JSON.stringify(content)),
})

test('settings: Export setup downloads setup.json; Import setup applies a file with a new dApp, which is listed; a bad file shows the field', async ({
  app,
  api,
}) => {
  const ui = new ConsoleApp(app)
  await ui.open('settings')
  await expect(app.getByTestId('setup-transfer')).toBeVisible()

  const [download] = await Promise.all([
    app.waitForEvent('download'),
    app.getByTestId('setup-export').click(),
  ])
  expect(download.suggestedFilename()).toBe('setup.json')
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'))
  expect(exported).toEqual({ version: 1, dapps: [], tokenPrices: [], accounts: [] })

  const setup = {
    ...exported,
    dapps: [{ name: 'imported-shop', apiKey: API_KEY, gasTanksEth: { '0.6': '2' } }],
  }
  await app.getByTestId('setup-import-file').setInputFiles(asFile('shop-setup.json', setup))
  await expect(app.getByTestId('setup-import-result')).toContainText('shop-setup.json applied: 2 changes')
  await expect(app.getByTestId('setup-import-changes')).toContainText('dApp "imported-shop" created')
  await expect(app.getByTestId('setup-import-changes')).toContainText(
    'dApp "imported-shop": gas tank v0.6 10 → 2 ETH',
  )
  await screenshot(app, 'settings-setup-imported')

  // The same file again: nothing to do.
  await app.getByTestId('setup-import-file').setInputFiles(asFile('shop-setup.json', setup))
  await expect(app.getByTestId('setup-import-result')).toHaveText(
    'shop-setup.json: already applied, nothing changed.',
  )

  // A file that does not parse: the server's message names the field.
  await app
    .getByTestId('setup-import-file')
    .setInputFiles(asFile('bad.json', { version: 1, dapps: [{ name: 'x', apiKey: 'short' }] }))
  await expect(app.getByTestId('setup-error-message')).toContainText(
    'setup: dapps[0].apiKey must look like a generated apiKey',
  )

  await ui.open('paymasters')
  const paymasters = new PaymastersScreen(app)
  await expect(paymasters.row('imported-shop')).toContainText(API_KEY)
  await expect(paymasters.row('imported-shop').getByTestId('paymaster-gas-tank')).toHaveText('2 ETH')
  const listed = await api.rest<{ name: string; apiKey: string }[]>('GET', '/api/v2/public/sdk/paymaster')
  expect(listed.body.data).toEqual([expect.objectContaining({ name: 'imported-shop', apiKey: API_KEY })])
})
