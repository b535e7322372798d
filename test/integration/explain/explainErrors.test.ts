import {
  type Address,
  createClient,
  encodeErrorResult,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FundedWallet } from '../../helpers/createFundedWallet'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import {
  callBundler,
  createSimple7702Client,
  createSimpleAccountClient,
  hex,
  randomAddress,
} from '../bundler/bundlerTestKit'
import {
  badSignatureOperation,
  deployExplainContracts,
  type ExplainContracts,
  type ExplainFixture,
  rpcErrorOf,
} from './explainTestKit'

/**
 * The errors clients already read name the phase, the frame and the decoded reason, as the trace and the
 * simulation do: eth_estimateUserOperationGas and eth_sendUserOperation (their ERC-7769 codes kept, the fields in
 * `data`), and a mined operation's receipt `reason`. Each case is driven through viem's bundler client on the real
 * chain, with contracts of the test's own (test/fixtures/contracts/ExplainContracts.sol), registered with their ABIs.
 */

let service: TestService
let contracts: ExplainContracts
let artifacts: ExplainFixture['artifacts']
let wallet: FundedWallet

/** Fixed limits: operations sent as they are (an estimate would refuse the revert before the send). */
const LIMITS = {
  callGasLimit: 200_000n,
  verificationGasLimit: 600_000n,
  preVerificationGas: 100_000n,
  maxFeePerGas: parseEther('0.00000002'),
  maxPriorityFeePerGas: 1_000_000_000n,
}

beforeAll(async () => {
  service = await getSharedTestService()
  ;({ contracts, artifacts, wallet } = await deployExplainContracts(service))
}, 60_000)

/** A viem client of the bundler URL with no account: operations other than SimpleAccount's are sent as they are. */
function rawBundler() {
  return createClient({ transport: http(service.info().bundlerUrl) })
}

/** eth_estimateUserOperationGas and eth_sendUserOperation both refuse `op` with the same code, line and fields. */
async function expectEstimateAndSendRejected(
  op: Record<string, unknown>,
  expected: { code: number; line: RegExp; fields: Record<string, unknown> },
  entryPoint: Address = entryPoint07Address,
) {
  for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
    const error = await rpcErrorOf(rawBundler().request({ method, params: [op, entryPoint] } as never))
    expect({ method, code: error.code }).toEqual({ method, code: expected.code })
    expect(error.message).toMatch(expected.line)
    expect(error.data).toMatchObject(expected.fields)
  }
}

/** eth_sendUserOperation with the call phase simulated too (the Biconomy SDK's `validation_and_execution`). */
function sendSimulatingExecution(op: Record<string, unknown>) {
  return rawBundler().request({
    method: 'eth_sendUserOperation',
    params: [op, entryPoint07Address, { simulation_type: 'validation_and_execution' }],
  } as never)
}

async function traceOf(userOpHash: Hex) {
  const { body } = await callBundler(service, 'opstation_traceUserOperation', [userOpHash])
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

async function simulate(op: Record<string, unknown>) {
  const { body } = await callBundler(service, 'opstation_simulateUserOperation', [op, entryPoint07Address])
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

const phaseOf = (explanation: { phases: { name: string }[] }, name: string) =>
  explanation.phases.find((p) => p.name === name) as any

/** A SimpleAccount v0.7's signed operation in the wire form, with the fixed limits unless given. */
async function signedOperation(
  account: Awaited<ReturnType<typeof createSimpleAccountClient>>['account'],
  calls: { to: Address; data: Hex }[],
  fields: Record<string, unknown> = {},
) {
  const unsigned = {
    ...(await account.getFactoryArgs()),
    sender: account.address,
    nonce: await account.getNonce(),
    callData: await account.encodeCalls(calls),
    ...LIMITS,
    ...fields,
  }
  const signature = await account.signUserOperation({ ...unsigned, signature: '0x' } as never)
  return Object.fromEntries(
    Object.entries({ ...unsigned, signature }).map(([k, v]) => [k, typeof v === 'bigint' ? hex(v) : v]),
  )
}

describe('errors of estimate and send, and the receipt reason, name the phase, frame and decoded reason', () => {
  it('an execution revert with a custom error in a nested call (account → Vault.withdraw → Ledger.debit)', async () => {
    const { account, bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, '0.7')
    await wallet.transact(contracts.ledger, {
      data: encodeFunctionData({
        abi: artifacts.Ledger!.abi,
        functionName: 'credit',
        args: [account.address, 5n],
      }),
    })
    const withdraw = encodeFunctionData({ abi: artifacts.Vault!.abi, functionName: 'withdraw', args: [7n] })
    const calls = [{ to: contracts.vault, data: withdraw }]
    const line = `execution reverted in Ledger.debit(address,uint256) at ${contracts.ledger}: InsufficientBalance(5, 7)`
    const fields = {
      phase: 'execution',
      address: contracts.ledger,
      contract: 'Ledger',
      function: 'debit(address,uint256)',
      reason: 'InsufficientBalance(5, 7)',
    }

    // The estimate: -32521 kept, one line naming the frame, the revert data and the same fields in `data`.
    const estimate = await rpcErrorOf(bundlerClient.estimateUserOperationGas({ calls }))
    expect(estimate.code).toBe(-32521)
    expect(estimate.message).toBe(line)
    const revertData = encodeErrorResult({
      abi: artifacts.Ledger!.abi,
      errorName: 'InsufficientBalance',
      args: [5n, 7n],
    })
    expect(estimate.data).toMatchObject({ ...fields, revertData })

    // The send with the execution simulated (Biconomy SDK's validation_and_execution): the same line.
    const op = await signedOperation(account, calls)
    const sent = await rpcErrorOf(sendSimulatingExecution(op))
    expect(sent.code).toBe(-32521)
    expect(sent.message).toBe(line)
    expect(sent.data).toMatchObject({ ...fields, revertData })

    // Sent with its own limits and mined: the receipt's reason is decoded.
    const hash = await bundlerClient.sendUserOperation({ calls, ...LIMITS })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(false)
    expect(receipt.reason).toBe('InsufficientBalance(5, 7)')

    // The trace and the simulation name the same frame and reason.
    const traced = await traceOf(hash)
    expect(traced.reason).toBe(line)
    expect(phaseOf(traced, 'execution').error).toMatchObject({
      address: contracts.ledger,
      contract: 'Ledger',
      function: 'debit(address,uint256)',
      reason: 'InsufficientBalance(5, 7)',
    })
    const simulated = await simulate(await signedOperation(account, calls))
    expect(simulated.status).toBe('would-revert')
    expect(simulated.reason).toBe(line)
  })

  it('on EntryPoint v0.6 too: the estimate names Ledger.debit and the receipt has the decoded reason', async () => {
    const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, '0.6')
    const withdraw = encodeFunctionData({ abi: artifacts.Vault!.abi, functionName: 'withdraw', args: [3n] })
    const calls = [{ to: contracts.vault, data: withdraw }]
    const estimate = await rpcErrorOf(bundlerClient.estimateUserOperationGas({ calls }))
    expect(estimate.code).toBe(-32521)
    expect(estimate.message).toBe(
      `execution reverted in Ledger.debit(address,uint256) at ${contracts.ledger}: InsufficientBalance(0, 3)`,
    )
    expect(estimate.data).toMatchObject({
      phase: 'execution',
      contract: 'Ledger',
      function: 'debit(address,uint256)',
    })

    const hash = await bundlerClient.sendUserOperation({ calls, ...LIMITS })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(false)
    expect(receipt.reason).toBe('InsufficientBalance(0, 3)')
  })

  it('an out-of-gas execution is told apart from an empty revert and names the limit to raise', async () => {
    const { account, bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, '0.7')
    // Burns far more than any limit: the estimate runs out however high it raises callGasLimit.
    const endless = encodeFunctionData({ abi: artifacts.Burner!.abi, functionName: 'burn', args: [100_000n] })
    const estimate = await rpcErrorOf(
      bundlerClient.estimateUserOperationGas({ calls: [{ to: contracts.burner, data: endless }] }),
    )
    expect(estimate.code).toBe(-32521)
    expect(estimate.message).toMatch(
      /^execution out of gas in Burner\.burn\(uint256\): raise callGasLimit \(\d+ given\)$/,
    )
    expect(estimate.data).toMatchObject({
      phase: 'execution',
      address: contracts.burner,
      contract: 'Burner',
      function: 'burn(uint256)',
      raise: 'callGasLimit',
    })

    // A burn that fits in an estimate, sent with too little call gas.
    const burn = encodeFunctionData({ abi: artifacts.Burner!.abi, functionName: 'burn', args: [100n] })
    const calls = [{ to: contracts.burner, data: burn }]
    const line = 'execution out of gas in Burner.burn(uint256): raise callGasLimit (80000 given)'
    const op = await signedOperation(account, calls, { callGasLimit: 80_000n })
    const sent = await rpcErrorOf(sendSimulatingExecution(op))
    expect(sent.code).toBe(-32521)
    expect(sent.message).toBe(line)
    expect(sent.data).toMatchObject({ phase: 'execution', contract: 'Burner', raise: 'callGasLimit' })

    const hash = await bundlerClient.sendUserOperation({ calls, ...LIMITS, callGasLimit: 80_000n })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(false)
    // No revert data: the receipt has no reason to decode; the trace tells the halt.
    expect(receipt.reason).toBe('')
    const traced = await traceOf(hash)
    expect(traced.reason).toBe(line)
    expect(phaseOf(traced, 'execution')).toMatchObject({ outcome: 'out of gas' })
    const simulated = await simulate(await signedOperation(account, calls, { callGasLimit: 80_000n }))
    expect(simulated.reason).toBe(line)
  })

  it('a validation revert in the account (AA23) names BadSignatureAccount.validateUserOp and BadSignature()', async () => {
    const op = await badSignatureOperation(service, contracts.badAccount)
    const line = new RegExp(
      `^AA23 reverted in BadSignatureAccount\\.validateUserOp\\(\\(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes\\),bytes32,uint256\\) at ${contracts.badAccount}: BadSignature\\(\\)$`,
    )
    const fields = {
      aaCode: 'AA23',
      phase: 'account-validation',
      address: contracts.badAccount,
      contract: 'BadSignatureAccount',
      function: expect.stringMatching(/^validateUserOp\(/),
      reason: 'BadSignature()',
      revertData: '0x5cd5d233',
    }
    await expectEstimateAndSendRejected(op, { code: -32500, line, fields })

    const simulated = await simulate(op)
    expect(simulated.status).toBe('rejected')
    expect(phaseOf(simulated, 'account-validation').error).toMatchObject({
      contract: 'BadSignatureAccount',
      reason: 'BadSignature()',
    })
    // Its record keeps the rich reason: the trace of the rejected operation answers it.
    const traced = await traceOf(simulated.userOpHash)
    expect(traced).toMatchObject({ status: 'rejected', reason: expect.stringMatching(line) })
  })

  it('a deployment whose factory reverts (AA13) names RefusingFactory.createAccount and its decoded error', async () => {
    const { body: fees } = await callBundler(service, 'biconomy_getGasFeeValues', [])
    const owner = randomAddress()
    const op = {
      sender: randomAddress(),
      nonce: '0x0',
      factory: contracts.factory,
      factoryData: encodeFunctionData({
        abi: artifacts.RefusingFactory!.abi,
        functionName: 'createAccount',
        args: [owner, 0n],
      }),
      callData: '0x',
      callGasLimit: hex(100_000n),
      verificationGasLimit: hex(500_000n),
      preVerificationGas: hex(60_000n),
      maxFeePerGas: fees.result.maxFeePerGas,
      maxPriorityFeePerGas: fees.result.maxPriorityFeePerGas,
      signature: '0x',
    }
    await expectEstimateAndSendRejected(op, {
      code: -32500,
      line: new RegExp(
        `^AA13 initCode failed in RefusingFactory\\.createAccount\\(address,uint256\\) at ${contracts.factory}: NotDeploying\\(${owner}\\)$`,
      ),
      fields: {
        aaCode: 'AA13',
        phase: 'deployment',
        address: contracts.factory,
        contract: 'RefusingFactory',
        function: 'createAccount(address,uint256)',
        reason: `NotDeploying(${owner})`,
      },
    })
  })

  /** A signed v0.7 operation of a fresh SimpleAccount calling Vault.withdraw(0), paid by RefusingPaymaster. */
  async function sponsoredOperation(paymasterData: Hex) {
    const { account, bundlerClient } = await createSimpleAccountClient(service, 0n, '0.7')
    const withdraw = encodeFunctionData({ abi: artifacts.Vault!.abi, functionName: 'withdraw', args: [0n] })
    const paymaster = {
      paymaster: contracts.paymaster,
      paymasterVerificationGasLimit: 50_000n,
      paymasterPostOpGasLimit: 50_000n,
      paymasterData,
    }
    const calls = [{ to: contracts.vault, data: withdraw }]
    return { account, bundlerClient, calls, paymaster, op: await signedOperation(account, calls, paymaster) }
  }

  it("a paymaster's validation revert (AA33) names RefusingPaymaster.validatePaymasterUserOp and NotSponsored", async () => {
    const { account, op } = await sponsoredOperation('0x01')
    const fields = {
      aaCode: 'AA33',
      phase: 'paymaster-validation',
      address: contracts.paymaster,
      contract: 'RefusingPaymaster',
      function: expect.stringMatching(/^validatePaymasterUserOp\(/),
      reason: `NotSponsored(${account.address})`,
    }
    const line = new RegExp(
      `^AA33 reverted in RefusingPaymaster\\.validatePaymasterUserOp\\(.*\\) at ${contracts.paymaster}: NotSponsored\\(${account.address}\\)$`,
    )
    await expectEstimateAndSendRejected(op, { code: -32501, line, fields })

    const simulated = await simulate(op)
    expect(phaseOf(simulated, 'paymaster-validation').error).toMatchObject({
      contract: 'RefusingPaymaster',
      reason: `NotSponsored(${account.address})`,
    })
  })

  it("a paymaster's postOp revert: the receipt's reason is the decoded PostOpFailed, as the trace says", async () => {
    const { bundlerClient, calls, paymaster } = await sponsoredOperation('0x00')
    const hash = await bundlerClient.sendUserOperation({ calls, ...LIMITS, ...paymaster })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(false)
    expect(receipt.reason).toMatch(/^postOp reverted: PostOpFailed\(\d+\)$/)

    const traced = await traceOf(hash)
    expect(phaseOf(traced, 'postOp')).toMatchObject({
      outcome: 'reverted',
      error: {
        address: contracts.paymaster,
        contract: 'RefusingPaymaster',
        function: 'postOp(uint8,bytes,uint256,uint256)',
        reason: expect.stringMatching(/^PostOpFailed\(\d+\)$/),
      },
    })
    expect(traced.reason).toMatch(
      new RegExp(
        `^postOp reverted in RefusingPaymaster\\.postOp\\(uint8,bytes,uint256,uint256\\) at ${contracts.paymaster}: PostOpFailed\\(\\d+\\)$`,
      ),
    )
  })

  it('a paymaster whose postOp reverts: the estimate refuses it (AA50) naming RefusingPaymaster.postOp and PostOpFailed', async () => {
    const { bundlerClient, calls, paymaster } = await sponsoredOperation('0x00')
    const estimate = await rpcErrorOf(bundlerClient.estimateUserOperationGas({ calls, ...paymaster }))
    expect(estimate.code).toBe(-32501)
    expect(estimate.message).toMatch(
      new RegExp(
        `^AA50 postOp reverted in RefusingPaymaster\\.postOp\\(uint8,bytes,uint256,uint256\\) at ${contracts.paymaster}: PostOpFailed\\(\\d+\\)$`,
      ),
    )
    expect(estimate.data).toMatchObject({
      aaCode: 'AA50',
      phase: 'postOp',
      address: contracts.paymaster,
      contract: 'RefusingPaymaster',
      function: 'postOp(uint8,bytes,uint256,uint256)',
      reason: expect.stringMatching(/^PostOpFailed\(\d+\)$/),
    })
  })

  it('an EIP-7702 authorization for another nonce of the EOA: the send names the authorization and why', async () => {
    const { client, owner, bundlerClient } = await createSimple7702Client(service)
    const nonce = await client.getTransactionCount({ address: owner.address })
    const stale = await owner.signAuthorization({
      address: service.chain!.addresses.simple7702AccountV08,
      chainId: service.chain!.chainId,
      nonce: nonce + 5,
    })
    const sent = await rpcErrorOf(
      bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }], authorization: stale }),
    )
    expect(sent.code).toBe(-32500)
    expect(sent.message).toBe(
      `AA20 account not deployed: EIP-7702 authorization no longer matches: it is for account nonce ${nonce + 5}, the account's nonce is ${nonce}`,
    )
  })
})

describe.each(['0.8', '0.9'] as const)(
  'on EntryPoint v%s, the same errors name the same frames',
  (version) => {
    const entryPointOf = () =>
      version === '0.8' ? service.chain!.addresses.entryPointV08 : service.chain!.addresses.entryPointV09

    it('an AA23 at estimate and send names BadSignatureAccount.validateUserOp and BadSignature()', async () => {
      const op = await badSignatureOperation(service, contracts.badAccount)
      await expectEstimateAndSendRejected(
        op,
        {
          code: -32500,
          line: new RegExp(
            `^AA23 reverted in BadSignatureAccount\\.validateUserOp\\(.*\\) at ${contracts.badAccount}: BadSignature\\(\\)$`,
          ),
          fields: {
            aaCode: 'AA23',
            phase: 'account-validation',
            contract: 'BadSignatureAccount',
            reason: 'BadSignature()',
          },
        },
        entryPointOf(),
      )
    })

    it.runIf(version === '0.8')(
      'a nested custom-error revert at the estimate names Ledger.debit and InsufficientBalance',
      async () => {
        const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, version as '0.8')
        const withdraw = encodeFunctionData({
          abi: artifacts.Vault!.abi,
          functionName: 'withdraw',
          args: [9n],
        })
        const estimate = await rpcErrorOf(
          bundlerClient.estimateUserOperationGas({ calls: [{ to: contracts.vault, data: withdraw }] }),
        )
        expect(estimate.code).toBe(-32521)
        expect(estimate.message).toBe(
          `execution reverted in Ledger.debit(address,uint256) at ${contracts.ledger}: InsufficientBalance(0, 9)`,
        )
        expect(estimate.data).toMatchObject({
          phase: 'execution',
          contract: 'Ledger',
          function: 'debit(address,uint256)',
        })
      },
    )
  },
)
