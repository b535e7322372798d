import { expect, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'
import { SandboxScreen } from './pages/SandboxScreen'

test('the Sandbox call form: no error before any input, `to` starts as the account itself, a problem shows once its field is left or on Send', async ({
  app,
}) => {
  const ui = new ConsoleApp(app)
  await ui.open('paymasters')
  await new PaymastersScreen(app).create('form-dapp')
  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  const error = app.getByTestId('call-error')

  // A dApp without a registered contract and no account yet: said quietly, nothing in red.
  await expect(app.getByTestId('sandbox-no-account')).toBeVisible()
  await expect(app.getByTestId('call-builder')).toContainText('This dApp has no registered contract')
  await expect(app.locator('.main .field-error, .main .banner-error')).toHaveCount(0)

  // Raw callData: `to` is the account itself, a call that needs no typing.
  const account = await sandbox.createAccount('simple')
  await app.getByTestId('call-source-raw').click()
  await expect(app.getByTestId('call-raw-to')).toHaveValue(account)
  await expect(app.getByTestId('call-summary')).toContainText('(the account itself)')

  // While typing, no error; once the field is left, its problem, marked on it.
  await app.getByTestId('call-raw-to').fill('0x1234')
  await expect(error).toHaveCount(0)
  await app.getByTestId('call-raw-to').blur()
  await expect(error).toHaveText('to: enter an address (0x + 40 hex digits)')
  await expect(app.getByTestId('call-raw-to')).toHaveAttribute('aria-invalid', 'true')
  await app.getByTestId('call-raw-to').fill('0x000000000000000000000000000000000000dEaD')
  await expect(error).toHaveCount(0)
  await expect(app.getByTestId('call-summary')).toContainText(
    'raw call to 0x000000000000000000000000000000000000dEaD',
  )

  // A registered-contract call with no contract: nothing until Send, then what to do, and no run starts.
  await app.getByTestId('call-source-contract').click()
  await expect(error).toHaveCount(0)
  await app.getByTestId('sandbox-send').click()
  await expect(error).toHaveText('Pick a registered contract and method (or use raw callData).')
  await expect(app.getByTestId('sandbox-run')).toHaveCount(0)
})
