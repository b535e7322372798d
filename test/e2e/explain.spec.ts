import {
  accountCallData,
  createSandboxAccount,
  deployExplainContracts,
  sendAndMine,
} from './explainOperation'
import { expect, screenshot, test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { SandboxScreen } from './pages/SandboxScreen'

/**
 * A failed operation explained on its page, then fixed in the Sandbox: a SimpleAccount calls Vault.withdraw(7),
 * which calls Ledger.debit, which reverts InsufficientBalance(5, 7) (the account holds 5). Its page names the
 * execution phase, the frame and the decoded reason, with the call tree; "Open in Sandbox" brings its fields, the
 * amount is changed to 5, and the simulation says it would succeed; sent, its page shows every phase ok and the
 * balances it changed.
 */
test('a nested custom-error revert is explained on its page, and fixed and simulated again in the Sandbox', async ({
  app,
  service,
  api,
}) => {
  test.setTimeout(180_000)
  const contracts = await deployExplainContracts(service, api)
  const account = await createSandboxAccount(api)
  await contracts.credit(account, 5n)
  const hash = await sendAndMine(service, api, account, { to: contracts.vault, data: contracts.withdraw(7n) })

  // A node that cannot trace answers -32002: the page shows its message, and traces again when asked.
  const cannotTrace =
    "The chain's node does not serve debug_traceTransaction, so the operation cannot be explained"
  await app.route(service.bundlerUrl, (route) => {
    const call = route.request().postDataJSON() as { id: number; method: string }
    if (call.method !== 'opstation_traceUserOperation') return route.fallback()
    return route.fulfill({
      json: { jsonrpc: '2.0', id: call.id, error: { code: -32002, message: cannotTrace } },
    })
  })
  await app.goto(`${service.consoleUrl}activity/op:${hash}`)
  await expect(app.getByTestId('operation-explanation-error')).toContainText(`Not traced: ${cannotTrace}`)
  await app.unroute(service.bundlerUrl)
  await app.getByTestId('operation-explain-again').click()
  const explanation = app.getByTestId('operation-explanation')
  await expect(explanation).toHaveAttribute('data-status', 'reverted', { timeout: 30_000 })
  await expect(explanation.getByTestId('explain-reason')).toContainText(
    'execution reverted in Ledger.debit(address,uint256)',
  )
  const execution = explanation.getByTestId('explain-phase-execution')
  await expect(execution).toHaveAttribute('data-outcome', 'reverted')
  await expect(execution).toContainText('callGasLimit')
  await expect(execution.getByTestId('explain-phase-execution-error-frame')).toHaveText(
    'Ledger.debit(address,uint256)',
  )
  await expect(execution.getByTestId('explain-phase-execution-error-reason')).toHaveText(
    'InsufficientBalance(5, 7)',
  )
  await expect(explanation.getByTestId('explain-phase-account-validation')).toHaveAttribute(
    'data-outcome',
    'ok',
  )
  // The account's validation: its signature valid, its window without bounds (SimpleAccount returns 0).
  const accountValidation = explanation.getByTestId('explain-phase-account-validation')
  await expect(accountValidation.getByTestId('explain-phase-account-validation-signature')).toHaveAttribute(
    'data-signature',
    'valid',
  )
  const validity = accountValidation.getByTestId('explain-phase-account-validation-validity')
  await expect(validity).toHaveAttribute('data-unit', 'timestamp')
  await expect(validity).toHaveAttribute('data-state', 'valid')
  await expect(validity).toContainText('no expiry')
  // The gas carried against used, and preVerificationGas carried against calculated with its parts.
  const gas = explanation.getByTestId('explain-gas')
  await expect(gas.locator('[data-testid="explain-gas-limit"][data-field="callGasLimit"]')).toContainText(
    '200,000',
  )
  await expect(gas.getByTestId('explain-gas-used')).toContainText(
    /Used [\d,]+ of [\d,]+ carried \(\d+(\.\d)?%\)/,
  )
  await expect(gas.getByTestId('explain-gas-pvg-calculated')).toHaveText(/^[1-9][\d,]*$/)
  await expect(gas.getByTestId('explain-gas-pvg-part').first()).toContainText('calldata')
  await expect(gas.getByTestId('explain-gas-pvg-parts')).toContainText('EntryPoint overhead per operation')
  // The call tree, decoded: the account's execute, Vault.withdraw(7), and the frame the revert started in.
  const calls = explanation.getByTestId('explain-calls')
  await expect(calls).toContainText('SimpleAccount v0.7.execute(')
  await expect(calls).toContainText('Vault.withdraw(uint256)(7)')
  const origin = calls.locator('[data-testid="explain-call"][data-origin="true"]')
  await expect(origin).toHaveCount(1)
  await expect(origin.getByTestId('explain-call-name')).toContainText('Ledger.debit(address,uint256)')
  await expect(origin.getByTestId('explain-call-reason')).toHaveText('InsufficientBalance(5, 7)')
  await expect(explanation.getByTestId('explain-events')).toContainText('UserOperationRevertReason')
  await screenshot(app, 'operation-explained-revert')

  // Open in Sandbox: its fields, with the nonce it used and its deployment brought up to date.
  await app.getByTestId('operation-open-sandbox').click()
  const replay = app.getByTestId('sandbox-replay')
  await expect(replay).toBeVisible()
  await expect(replay.getByTestId('replay-changes')).toContainText('nonce 0x0 → 0x1')
  await expect(replay.getByTestId('replay-changes')).toContainText('no deployment')
  await expect(replay.getByTestId('replay-field-callGasLimit')).toHaveValue('0x30d40')
  await expect(replay.getByTestId('replay-field-factory')).toHaveCount(0)

  // As it was (signed again for its new nonce), it would still revert, for the same reason.
  await replay.getByTestId('replay-sign').click()
  await expect(replay.getByTestId('replay-message')).toContainText('Signed again')
  await replay.getByTestId('replay-simulate').click()
  const simulation = replay.getByTestId('replay-simulation')
  await expect(simulation).toHaveAttribute('data-status', 'would-revert')
  await expect(simulation.getByTestId('explain-phase-execution-error-reason')).toHaveText(
    'InsufficientBalance(5, 7)',
  )

  // The call changed to withdraw what the account holds: it would succeed.
  const withdrawFive = await accountCallData(api, account, {
    to: contracts.vault,
    data: contracts.withdraw(5n),
  })
  await replay.getByTestId('replay-field-callData').fill(withdrawFive)
  await replay.getByTestId('replay-sign').click()
  await replay.getByTestId('replay-simulate').click()
  await expect(simulation).toHaveAttribute('data-status', 'would-succeed')
  await expect(simulation.getByTestId('explain-phase-execution')).toHaveAttribute('data-outcome', 'ok')
  await expect(simulation.getByTestId('explain-calls')).toContainText('Ledger.debit(address,uint256)')
  await screenshot(app, 'sandbox-replay-simulated')

  // Sent: mined, its page shows every phase ok and the balances it changed.
  await replay.getByTestId('replay-send').click()
  await expect(replay.getByTestId('replay-message')).toContainText('Sent.')
  await replay.getByTestId('replay-open-activity').click()
  const mined = app.getByTestId('operation-explanation')
  await expect(mined).toHaveAttribute('data-status', 'mined', { timeout: 30_000 })
  await expect(mined.locator('[data-testid^="explain-phase-"][data-outcome]')).not.toHaveCount(0)
  await expect(
    mined.locator('[data-testid^="explain-phase-"][data-outcome]:not([data-outcome="ok"])'),
  ).toHaveCount(0)
  await expect(mined.getByTestId('explain-reason')).toHaveCount(0)
  const balances = mined.getByTestId('explain-balances')
  await expect(balances.getByTestId('explain-balance').first()).toBeVisible()
  // The account paid its gas in ETH, to the EntryPoint.
  const sender = balances.getByTestId('explain-balance').filter({ hasText: 'SimpleAccount v0.7' })
  await expect(sender).toContainText(/-0\.\d+ ETH/)
  await expect(sender.locator('code[title]')).toHaveAttribute('title', new RegExp(account, 'i'))
  await screenshot(app, 'operation-explained-mined')

  // The Sandbox's Simulate on a call that would revert: the estimate refuses it, the simulation says why.
  await new ConsoleApp(app).open('sandbox')
  const sandbox = new SandboxScreen(app)
  await sandbox.mode('SELF')
  await app.getByTestId('call-source-contract').click()
  const contractPicker = app.getByTestId('call-contract')
  await contractPicker.selectOption(
    (await contractPicker.locator('option', { hasText: 'Vault' }).getAttribute('value')) ?? '',
  )
  await sandbox.contractCall('withdraw', { amount: '9' })
  await app.getByTestId('sandbox-simulate').click()
  const wouldRevert = app.getByTestId('sandbox-simulation')
  await expect(wouldRevert).toHaveAttribute('data-status', 'would-revert', { timeout: 60_000 })
  await expect(sandbox.step('estimate')).toHaveAttribute('data-status', 'failed')
  await expect(app.getByTestId('sandbox-simulation-note')).toContainText('generous limits (callGasLimit')
  await expect(wouldRevert.getByTestId('explain-phase-execution-error-frame')).toHaveText(
    'Ledger.debit(address,uint256)',
  )
  await expect(wouldRevert.getByTestId('explain-phase-execution-error-reason')).toHaveText(
    'InsufficientBalance(0, 9)',
  )
  await expect(sandbox.step('send')).toHaveAttribute('data-status', 'idle')
})

/** The Sandbox's Simulate: the operation is built, priced and signed, then simulated; nothing is sent. */
test("the Sandbox's Simulate explains the operation being built without sending it", async ({ app }) => {
  const ui = new ConsoleApp(app)
  await ui.open('sandbox')
  const sandbox = new SandboxScreen(app)
  await sandbox.createAccount('simple-v07')
  await app.getByTestId('faucet-eth').click()
  await expect(app.getByTestId('faucet-message')).toHaveText('Sent 1 ETH.')
  await sandbox.mode('SELF')
  await app.getByTestId('call-source-raw').click()
  await app.getByTestId('call-raw-to').fill('0x000000000000000000000000000000000000dEaD')
  await app.getByTestId('call-raw-data').fill('0x')
  await app.getByTestId('call-value').fill('0.25')
  await app.getByTestId('sandbox-simulate').click()

  const simulation = app.getByTestId('sandbox-simulation')
  await expect(simulation).toHaveAttribute('data-status', 'would-succeed', { timeout: 60_000 })
  await expect(simulation.getByTestId('explain-phase-deployment')).toHaveAttribute('data-outcome', 'ok')
  await expect(simulation.getByTestId('explain-phase-execution')).toHaveAttribute('data-outcome', 'ok')
  // The account, not deployed yet, is named from its factory: its validation and execution decoded.
  const calls = simulation.getByTestId('explain-calls')
  await expect(calls).toContainText('SimpleAccount v0.7.validateUserOp(')
  await expect(calls).toContainText('SimpleAccount v0.7.execute(')
  await expect(simulation.getByTestId('explain-phase-account-validation-signature')).toHaveAttribute(
    'data-signature',
    'valid',
  )
  await expect(simulation.getByTestId('explain-gas-pvg-part').first()).toBeVisible()
  // The 0.25 ETH the call would send, to the recipient.
  await expect(simulation.getByTestId('explain-balances')).toContainText('+0.25 ETH')
  // Nothing was sent: the send step has not run and the account still holds its 1 ETH.
  await expect(sandbox.step('sign')).toHaveAttribute('data-status', 'done')
  await expect(sandbox.step('send')).toHaveAttribute('data-status', 'idle')
  await expect(app.getByTestId('sandbox-balance-eth')).toHaveText('1 ETH')
  await screenshot(app, 'sandbox-simulated')
})
