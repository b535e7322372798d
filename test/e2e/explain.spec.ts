import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem'
import { entryPoint07Address, getUserOperationHash } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  accountCallData,
  createSandboxAccount,
  deployExplainContracts,
  deployFailureContracts,
  gasFees,
  sendAndMine,
  sendAndWaitForReceipt,
  sendRejected,
  signSandboxOperation,
  staleAuthorizationOperation,
} from './explainOperation'
import { expect, screenshot, testSharingService as test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { SandboxScreen } from './pages/SandboxScreen'

// The worker's service for these tests: each sends from accounts and contracts of its own, and opens pages by hash.

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
  const ui = new ConsoleApp(app)
  await ui.open('sandbox')
  // This test's dApp and account: the worker's service may hold other tests' (the Sandbox starts on the first of each).
  await ui.pickDapp('explain-dapp')
  await app.getByTestId('sandbox-account-picker').selectOption(account)
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
  await sandbox.rawCall('0x000000000000000000000000000000000000dEaD', '0x')
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

/**
 * Each failure, and a success, on its operation page, on one service: an execution that runs out of gas, an account
 * that rejects its operation (AA23) and a paymaster that does (AA33), both refused at admission and explained from
 * the simulation made then, a paymaster whose postOp reverts, a token transfer, and an EIP-7702 authorization signed
 * for the wrong nonce.
 */
test('each failure, and a token transfer, is explained on its operation page', async ({
  app,
  service,
  api,
}) => {
  test.setTimeout(180_000)
  const contracts = await deployFailureContracts(service, api)
  const account = await createSandboxAccount(api)
  const explanation = app.getByTestId('operation-explanation')
  const openOperation = async (hash: Hex, status: string) => {
    await app.goto(`${service.consoleUrl}activity/op:${hash}`)
    await expect(explanation).toHaveAttribute('data-status', status, { timeout: 30_000 })
  }
  const refusingPaymaster = (paymasterData: Hex) => ({
    paymaster: contracts.paymaster,
    paymasterVerificationGasLimit: '0xc350',
    paymasterPostOpGasLimit: '0xc350',
    paymasterData,
  })

  await test.step('out of gas: the execution ran out in Burner.burn, and the page says which limit to raise', async () => {
    const hash = await sendAndMine(
      service,
      api,
      account,
      { to: contracts.burner, data: contracts.burn(100n) },
      { callGasLimit: '0x13880' },
    )
    await openOperation(hash, 'reverted')
    const execution = explanation.getByTestId('explain-phase-execution')
    await expect(execution).toHaveAttribute('data-outcome', 'out of gas')
    await expect(execution.getByTestId('explain-phase-execution-error-frame')).toHaveText(
      'Burner.burn(uint256)',
    )
    await expect(explanation.getByTestId('explain-reason')).toContainText(
      'execution out of gas in Burner.burn(uint256): raise callGasLimit (80000 given)',
    )
    await expect(execution).toContainText('raise callGasLimit')
    await screenshot(app, 'operation-explained-out-of-gas')
  })

  await test.step('AA23: refused at admission, its page shows the account validation that reverted and why', async () => {
    const fees = await gasFees(service)
    const op = {
      sender: contracts.badAccount,
      nonce: '0x0',
      callData: '0x',
      callGasLimit: '0x186a0',
      verificationGasLimit: '0x30d40',
      preVerificationGas: '0xea60',
      ...fees,
      signature: '0x',
    }
    const rejected = await sendRejected(service, op, entryPoint07Address)
    expect(rejected).toMatchObject({ code: -32500, message: expect.stringMatching(/^AA23 reverted in /) })
    const hash = getUserOperationHash({
      chainId: service.chainId,
      entryPointAddress: entryPoint07Address,
      entryPointVersion: '0.7',
      userOperation: {
        sender: op.sender,
        nonce: 0n,
        callData: '0x',
        callGasLimit: BigInt(op.callGasLimit),
        verificationGasLimit: BigInt(op.verificationGasLimit),
        preVerificationGas: BigInt(op.preVerificationGas),
        maxFeePerGas: BigInt(fees.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(fees.maxPriorityFeePerGas),
        signature: '0x',
      },
    })
    await openOperation(hash, 'rejected')
    await expect(explanation.getByTestId('explain-reason')).toContainText(
      'AA23 reverted in BadSignatureAccount',
    )
    await expect(explanation.getByTestId('explain-notes')).toContainText(
      'rejected by eth_sendUserOperation, so never in a transaction: simulated as it was sent',
    )
    const validation = explanation.getByTestId('explain-phase-account-validation')
    await expect(validation).toHaveAttribute('data-outcome', 'reverted')
    await expect(validation.getByTestId('explain-phase-account-validation-error-frame')).toContainText(
      'BadSignatureAccount.validateUserOp(',
    )
    await expect(validation.getByTestId('explain-phase-account-validation-error-reason')).toHaveText(
      'BadSignature()',
    )
    await screenshot(app, 'operation-explained-rejected')
  })

  await test.step("AA33: the paymaster's validation refused it at admission, its frame and reason shown", async () => {
    const op = await signSandboxOperation(
      api,
      account,
      { to: contracts.burner, data: contracts.burn(1n) },
      refusingPaymaster('0x01'),
    )
    const rejected = await sendRejected(service, op.userOperation, op.entryPoint)
    expect(rejected).toMatchObject({ code: -32501, message: expect.stringMatching(/^AA33 reverted in /) })
    await openOperation(op.userOpHash, 'rejected')
    const validation = explanation.getByTestId('explain-phase-paymaster-validation')
    await expect(validation).toHaveAttribute('data-outcome', 'reverted')
    await expect(validation.getByTestId('explain-phase-paymaster-validation-error-frame')).toContainText(
      'RefusingPaymaster.validatePaymasterUserOp(',
    )
    await expect(validation.getByTestId('explain-phase-paymaster-validation-error-reason')).toHaveText(
      `NotSponsored(${account})`,
    )
  })

  await test.step("postOp: mined, the paymaster's postOp reverted after the execution succeeded", async () => {
    const hash = await sendAndWaitForReceipt(
      service,
      await signSandboxOperation(
        api,
        account,
        { to: contracts.burner, data: contracts.burn(1n) },
        refusingPaymaster('0x00'),
      ),
    )
    await openOperation(hash, 'reverted')
    await expect(explanation.getByTestId('explain-phase-execution')).toHaveAttribute('data-outcome', 'ok')
    const postOp = explanation.getByTestId('explain-phase-postOp')
    await expect(postOp).toHaveAttribute('data-outcome', 'reverted')
    await expect(postOp.getByTestId('explain-phase-postOp-error-frame')).toHaveText(
      'RefusingPaymaster.postOp(uint8,bytes,uint256,uint256)',
    )
    await expect(postOp.getByTestId('explain-phase-postOp-error-reason')).toHaveText(/^PostOpFailed\(\d+\)$/)
  })

  await test.step('a token transfer that succeeds: both balances and the Transfer event shown', async () => {
    const minted = await api.json<{ data: { asset: Address } }>('POST', '/console/api/sandbox/faucet', {
      address: account,
      asset: 'tUSDC',
      amount: '10',
    })
    const token = minted.body.data.asset
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, 1_000_000n],
    })
    const hash = await sendAndMine(service, api, account, { to: token, data: transfer })
    await openOperation(hash, 'mined')
    await expect(
      explanation.locator('[data-testid^="explain-phase-"][data-outcome]:not([data-outcome="ok"])'),
    ).toHaveCount(0)
    const balances = explanation.getByTestId('explain-balance').filter({ hasText: 'tUSDC' })
    const sent = balances.filter({ has: app.locator(`code[title="${account}" i]`) })
    await expect(sent).toContainText('-1000000')
    const received = balances.filter({ has: app.locator(`code[title="${recipient}" i]`) })
    await expect(received).toContainText('+1000000')
    const event = explanation.getByTestId('explain-event').filter({ hasText: 'Transfer' })
    await expect(event).toContainText('value: 1000000')
    await expect(event).toContainText('from tUSDC')
    await screenshot(app, 'operation-explained-token-transfer')
  })

  await test.step('EIP-7702: an authorization for the wrong nonce, refused, says why it is not applied', async () => {
    const op = await staleAuthorizationOperation(service, contracts.publicClient)
    const rejected = await sendRejected(service, op.userOperation, op.entryPoint)
    expect(rejected.message).toMatch(/^AA20 account not deployed: EIP-7702 authorization no longer matches/)
    await openOperation(op.userOpHash, 'rejected')
    const authorization = explanation.getByTestId('explain-authorization')
    await expect(authorization).toHaveAttribute('data-applied', 'false')
    await expect(authorization.getByTestId('explain-authorization-reasons')).toHaveText(
      `it is for nonce ${op.stale}, the sender's nonce was ${op.nonce}`,
    )
    await screenshot(app, 'operation-explained-7702-authorization')
  })
})
