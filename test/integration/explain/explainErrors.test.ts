import { type Address, concat, encodeErrorResult, encodeFunctionData, type Hex } from 'viem'
import { formatUserOperationRequest } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import type { FundedWallet } from '../../helpers/createFundedWallet'
import { expectRejectionLine } from '../../helpers/expectRejectionLine'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, createSimple7702Client, hex, randomAddress } from '../bundler/bundlerTestKit'
import {
  badSignatureOperation,
  createVersionAccount,
  deployExplainContracts,
  describeExplanation,
  ENTRY_POINTS,
  type EntryPointVersion,
  type ExplainContracts,
  type ExplainFixture,
  LIMITS,
  rawBundler,
  rpcErrorOf,
} from './explainTestKit'

/**
 * The errors clients already read name the phase, the frame and the decoded reason, as the trace and the
 * simulation do: eth_estimateUserOperationGas and eth_sendUserOperation (their ERC-7769 codes kept, the fields in
 * `data`), a mined operation's receipt `reason`, opstation_traceUserOperation and opstation_simulateUserOperation.
 * Each case is driven through viem's bundler client on the real chain, on every EntryPoint version where its phase
 * exists (v0.9's account is viem's Simple7702Account), with contracts of the test's own
 * (test/fixtures/contracts/ExplainContracts.sol), registered with their ABIs.
 */

let service: TestService
let contracts: ExplainContracts
let artifacts: ExplainFixture['artifacts']
let wallet: FundedWallet

beforeAll(async () => {
  service = await getSharedTestService()
  ;({ contracts, artifacts, wallet } = await deployExplainContracts(service))
}, 90_000)

/** eth_estimateUserOperationGas and eth_sendUserOperation both refuse `op` with the same code, line and fields. */
async function expectEstimateAndSendRejected(
  op: Record<string, unknown>,
  expected: { code: number; line: RegExp | string; fields: Record<string, unknown> },
  entryPoint: Address,
) {
  for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
    const error = await rpcErrorOf(rawBundler(service).request({ method, params: [op, entryPoint] } as never))
    expect({ method, code: error.code }).toEqual({ method, code: expected.code })
    expectRejectionLine(error, expected.line)
    expect(error.data).toMatchObject(expected.fields)
  }
}

/** eth_sendUserOperation with the call phase simulated too (the Biconomy SDK's `validation_and_execution`). */
function sendSimulatingExecution(op: Record<string, unknown>, entryPoint: Address) {
  return rawBundler(service).request({
    method: 'eth_sendUserOperation',
    params: [op, entryPoint, { simulation_type: 'validation_and_execution' }],
  } as never)
}

async function traceOf(userOpHash: Hex) {
  const { body } = await callBundler(service, 'opstation_traceUserOperation', [userOpHash])
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

/**
 * The trace of an operation rejected at admission: simulated when it was rejected, off the send's answer, and kept
 * with its record (the trace waits for a simulation still under way).
 */
const traceOfRejected = traceOf

async function simulate(op: Record<string, unknown>, entryPoint: Address) {
  const { body } = await callBundler(service, 'opstation_simulateUserOperation', [op, entryPoint])
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

const phaseOf = (explanation: { phases: { name: string }[] }, name: string) =>
  explanation.phases.find((p) => p.name === name) as any

const outcomesOf = (explanation: { phases: { name: string; outcome: string }[] }) =>
  explanation.phases.map((p) => `${p.name}:${p.outcome}`)

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Vault.withdraw(amount): the Ledger under it reverts InsufficientBalance(held, amount) past what it holds. */
const withdraw = (amount: bigint) => [
  {
    to: contracts.vault,
    data: encodeFunctionData({ abi: artifacts.Vault!.abi, functionName: 'withdraw', args: [amount] }),
  },
]

/** The fields that make an operation paid by RefusingPaymaster, with `paymasterData` (0x01: it refuses). */
function paidByRefusingPaymaster(version: EntryPointVersion, paymasterData: Hex) {
  return version === '0.6'
    ? { paymasterAndData: concat([contracts.paymaster, paymasterData]) }
    : {
        paymaster: contracts.paymaster,
        paymasterVerificationGasLimit: 50_000n,
        paymasterPostOpGasLimit: 50_000n,
        paymasterData,
      }
}

/** RefusingPaymaster's postOp: v0.6's has no fee argument. */
const postOpOf = (version: EntryPointVersion) =>
  version === '0.6' ? 'postOp(uint8,bytes,uint256)' : 'postOp(uint8,bytes,uint256,uint256)'

describe.each(Object.keys(ENTRY_POINTS) as EntryPointVersion[])(
  'on EntryPoint v%s, every surface names the phase, the frame and the decoded reason',
  (version) => {
    const entryPoint = ENTRY_POINTS[version]

    it('an execution revert with a custom error in a nested call (account → Vault.withdraw → Ledger.debit)', async () => {
      const account = await createVersionAccount(service, version)
      await wallet.transact(contracts.ledger, {
        data: encodeFunctionData({
          abi: artifacts.Ledger!.abi,
          functionName: 'credit',
          args: [account.address, 5n],
        }),
      })
      const calls = withdraw(7n)
      const line = `execution reverted in Ledger.debit(address,uint256) at ${contracts.ledger}: InsufficientBalance(5, 7)`
      const frame = {
        address: contracts.ledger,
        contract: 'Ledger',
        function: 'debit(address,uint256)',
        reason: 'InsufficientBalance(5, 7)',
      }
      const revertData = encodeErrorResult({
        abi: artifacts.Ledger!.abi,
        errorName: 'InsufficientBalance',
        args: [5n, 7n],
      })

      // The estimate: -32521 kept, one line naming the frame, the revert data and the same fields in `data`.
      const estimate = await rpcErrorOf(account.estimate(calls))
      expect(estimate.code).toBe(-32521)
      expectRejectionLine(estimate, line)
      expect(estimate.data).toMatchObject({ phase: 'execution', ...frame, revertData })

      // The send with the execution simulated (Biconomy SDK's validation_and_execution): the same line.
      const sent = await rpcErrorOf(sendSimulatingExecution(await account.signed(calls, LIMITS), entryPoint))
      expect(sent.code).toBe(-32521)
      expectRejectionLine(sent, line)
      expect(sent.data).toMatchObject({ phase: 'execution', ...frame, revertData })

      // Sent with its own limits and mined: the receipt's reason is decoded.
      const hash = await account.send(calls, LIMITS)
      const receipt = await account.bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
      expect(receipt.success).toBe(false)
      expect(receipt.reason).toBe('InsufficientBalance(5, 7)')

      // The trace and the simulation name the same phase, frame and reason.
      const traced = await traceOf(hash)
      expect(traced).toMatchObject({ status: 'reverted', reason: line })
      expect(phaseOf(traced, 'execution')).toMatchObject({ outcome: 'reverted', error: frame })
      const simulated = await simulate(await account.signed(calls, LIMITS), entryPoint)
      expect(simulated).toMatchObject({ status: 'would-revert', reason: line })
      expect(phaseOf(simulated, 'execution')).toMatchObject({ outcome: 'reverted', error: frame })
    })

    it('an out-of-gas execution is told apart from an empty revert and names the limit to raise', async () => {
      const account = await createVersionAccount(service, version)
      // Burns far more than any limit: the estimate runs out however high it raises callGasLimit.
      const endless = encodeFunctionData({
        abi: artifacts.Burner!.abi,
        functionName: 'burn',
        args: [100_000n],
      })
      const estimate = await rpcErrorOf(account.estimate([{ to: contracts.burner, data: endless }]))
      expect(estimate.code).toBe(-32521)
      expect(estimate.message).toMatch(
        /^execution out of gas in Burner\.burn\(uint256\): raise callGasLimit \(\d+ given\)$/,
      )
      const frame = { address: contracts.burner, contract: 'Burner', function: 'burn(uint256)' }
      expect(estimate.data).toMatchObject({ phase: 'execution', ...frame, raise: 'callGasLimit' })

      // A burn that fits in an estimate, sent with too little call gas.
      const burn = encodeFunctionData({ abi: artifacts.Burner!.abi, functionName: 'burn', args: [100n] })
      const calls = [{ to: contracts.burner, data: burn }]
      const limits = { ...LIMITS, callGasLimit: 80_000n }
      const line = 'execution out of gas in Burner.burn(uint256): raise callGasLimit (80000 given)'
      const sent = await rpcErrorOf(sendSimulatingExecution(await account.signed(calls, limits), entryPoint))
      expect(sent.code).toBe(-32521)
      expect(sent.message).toBe(line)
      expect(sent.data).toMatchObject({ phase: 'execution', ...frame, raise: 'callGasLimit' })

      const hash = await account.send(calls, limits)
      const receipt = await account.bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
      expect(receipt.success).toBe(false)
      // No revert data: the receipt has no reason to decode; the trace tells the halt.
      expect(receipt.reason).toBe('')
      const traced = await traceOf(hash)
      expect(traced.reason).toBe(line)
      expect(phaseOf(traced, 'execution')).toMatchObject({
        outcome: 'out of gas',
        error: { ...frame, raise: 'callGasLimit', revert: { kind: 'out-of-gas' } },
      })
      const simulated = await simulate(await account.signed(calls, limits), entryPoint)
      expect(simulated).toMatchObject({ status: 'would-revert', reason: line })
      expect(phaseOf(simulated, 'execution')).toMatchObject({ outcome: 'out of gas', error: frame })
    })

    it('a validation revert in the account (AA23) names BadSignatureAccount.validateUserOp and BadSignature()', async () => {
      const op = await badSignatureOperation(service, contracts.badAccount, true, version)
      const line = new RegExp(
        `^AA23 reverted in BadSignatureAccount\\.validateUserOp\\(\\(address,uint256,bytes,bytes,.*\\),bytes32,uint256\\) at ${contracts.badAccount}: BadSignature\\(\\)$`,
      )
      const frame = {
        address: contracts.badAccount,
        contract: 'BadSignatureAccount',
        function: expect.stringMatching(/^validateUserOp\(/),
        reason: 'BadSignature()',
      }
      await expectEstimateAndSendRejected(
        op,
        {
          code: -32500,
          line,
          fields: { aaCode: 'AA23', phase: 'account-validation', ...frame, revertData: '0x5cd5d233' },
        },
        entryPoint,
      )

      const simulated = await simulate(op, entryPoint)
      expect(simulated.status).toBe('rejected')
      expect(outcomesOf(simulated)).toEqual(['account-validation:reverted'])
      expect(phaseOf(simulated, 'account-validation').error).toMatchObject(frame)
      // Its record keeps the rich reason, and the simulation made when it was rejected: its phase and frame.
      const traced = await traceOfRejected(simulated.userOpHash)
      expect(traced).toMatchObject({ status: 'rejected', reason: expect.stringMatching(line) })
      expect(phaseOf(traced, 'account-validation')).toMatchObject({ outcome: 'reverted', error: frame })
    })

    it('a deployment whose factory reverts (AA13) names RefusingFactory.createAccount and its decoded error', async () => {
      const { body: fees } = await callBundler(service, 'biconomy_getGasFeeValues', [])
      const owner = randomAddress()
      const factoryData = encodeFunctionData({
        abi: artifacts.RefusingFactory!.abi,
        functionName: 'createAccount',
        args: [owner, 0n],
      })
      const op = {
        sender: randomAddress(),
        nonce: '0x0',
        ...(version === '0.6'
          ? { initCode: concat([contracts.factory, factoryData]), paymasterAndData: '0x' }
          : { factory: contracts.factory, factoryData }),
        callData: '0x',
        callGasLimit: hex(100_000n),
        verificationGasLimit: hex(500_000n),
        preVerificationGas: hex(60_000n),
        maxFeePerGas: fees.result.maxFeePerGas,
        maxPriorityFeePerGas: fees.result.maxPriorityFeePerGas,
        signature: '0x',
      }
      const frame = {
        address: contracts.factory,
        contract: 'RefusingFactory',
        function: 'createAccount(address,uint256)',
        reason: `NotDeploying(${owner})`,
      }
      await expectEstimateAndSendRejected(
        op,
        {
          code: -32500,
          line: `AA13 initCode failed in RefusingFactory.createAccount(address,uint256) at ${contracts.factory}: NotDeploying(${owner})`,
          fields: { aaCode: 'AA13', phase: 'deployment', ...frame },
        },
        entryPoint,
      )
      const simulated = await simulate(op, entryPoint)
      expect(simulated.status).toBe('rejected')
      expect(outcomesOf(simulated)).toEqual(['deployment:reverted'])
      expect(phaseOf(simulated, 'deployment').error).toMatchObject(frame)
      const traced = await traceOfRejected(simulated.userOpHash)
      expect(traced).toMatchObject({
        status: 'rejected',
        reason: expect.stringMatching(/^AA13 initCode failed in/),
      })
      expect(phaseOf(traced, 'deployment')).toMatchObject({ outcome: 'reverted', error: frame })
    })

    it("a paymaster's validation revert (AA33) names RefusingPaymaster.validatePaymasterUserOp and NotSponsored", async () => {
      const account = await createVersionAccount(service, version, 0n)
      const op = await account.signed(withdraw(0n), {
        ...LIMITS,
        ...paidByRefusingPaymaster(version, '0x01'),
      })
      const frame = {
        address: contracts.paymaster,
        contract: 'RefusingPaymaster',
        function: expect.stringMatching(/^validatePaymasterUserOp\(/),
        reason: `NotSponsored(${account.address})`,
      }
      await expectEstimateAndSendRejected(
        op,
        {
          code: -32501,
          line: new RegExp(
            `^AA33 reverted in RefusingPaymaster\\.validatePaymasterUserOp\\(.*\\) at ${contracts.paymaster}: NotSponsored\\(${account.address}\\)$`,
          ),
          fields: { aaCode: 'AA33', phase: 'paymaster-validation', ...frame },
        },
        entryPoint,
      )
      const simulated = await simulate(op, entryPoint)
      expect(simulated.status).toBe('rejected')
      expect(phaseOf(simulated, 'paymaster-validation')).toMatchObject({
        outcome: 'reverted',
        limitField: version === '0.6' ? 'verificationGasLimit' : 'paymasterVerificationGasLimit',
        error: frame,
      })
      const traced = await traceOfRejected(simulated.userOpHash)
      expect(traced).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/^AA33 reverted in/) })
      expect(phaseOf(traced, 'paymaster-validation')).toMatchObject({ outcome: 'reverted', error: frame })
    })

    it('a paymaster whose postOp reverts: the estimate refuses it (AA50) naming RefusingPaymaster.postOp and PostOpFailed', async () => {
      const account = await createVersionAccount(service, version, 0n)
      const paymaster = paidByRefusingPaymaster(version, '0x00')
      const frame = {
        address: contracts.paymaster,
        contract: 'RefusingPaymaster',
        function: postOpOf(version),
        reason: expect.stringMatching(/^PostOpFailed\(\d+\)$/),
      }
      const estimate = await rpcErrorOf(account.estimate(withdraw(0n), paymaster))
      expect(estimate.code).toBe(-32501)
      expectRejectionLine(
        estimate,
        new RegExp(
          `^AA50 postOp revert(ed)? in RefusingPaymaster\\.${escapeRegExp(postOpOf(version))} at ${contracts.paymaster}: PostOpFailed\\(\\d+\\)$`,
        ),
      )
      expect(estimate.data).toMatchObject({ aaCode: 'AA50', phase: 'postOp', ...frame })

      // Simulated: every phase before it ran, postOp reverted in RefusingPaymaster.
      const simulated = await simulate(
        await account.signed(withdraw(0n), { ...LIMITS, ...paymaster }),
        entryPoint,
      )
      expect(phaseOf(simulated, 'postOp')).toMatchObject({ outcome: 'reverted', error: frame })
      expect(phaseOf(simulated, 'execution')).toMatchObject({ outcome: 'ok' })
    })

    // v0.6 reverts the whole bundle when postOp reverts twice (AA50): such an operation is never mined there.
    it.runIf(version !== '0.6')(
      "a paymaster's postOp revert in a mined operation: the receipt's reason is the decoded PostOpFailed, as the trace says",
      async () => {
        const account = await createVersionAccount(service, version, 0n)
        const paymaster = paidByRefusingPaymaster(version, '0x00')
        const hash = await account.send(withdraw(0n), { ...LIMITS, ...paymaster })
        const receipt = await account.bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
        expect(receipt.success).toBe(false)
        expect(receipt.reason).toMatch(/^postOp reverted: PostOpFailed\(\d+\)$/)

        const frame = {
          address: contracts.paymaster,
          contract: 'RefusingPaymaster',
          function: 'postOp(uint8,bytes,uint256,uint256)',
          reason: expect.stringMatching(/^PostOpFailed\(\d+\)$/),
        }
        const traced = await traceOf(hash)
        expect(traced.status).toBe('reverted')
        expect(phaseOf(traced, 'postOp')).toMatchObject({
          outcome: 'reverted',
          limitField: 'paymasterPostOpGasLimit',
          error: frame,
        })
        expect(traced.reason).toMatch(
          new RegExp(
            `^postOp reverted in RefusingPaymaster\\.postOp\\(uint8,bytes,uint256,uint256\\) at ${contracts.paymaster}: PostOpFailed\\(\\d+\\)$`,
          ),
        )
        const simulated = await simulate(
          await account.signed(withdraw(0n), { ...LIMITS, ...paymaster }),
          entryPoint,
        )
        expect(simulated.status).toBe('would-revert')
        expect(outcomesOf(simulated).slice(-3)).toEqual([
          'paymaster-validation:ok',
          'execution:ok',
          'postOp:reverted',
        ])
        expect(phaseOf(simulated, 'postOp').error).toMatchObject(frame)
      },
    )

    it('a token transfer that succeeds: estimated, simulated, mined and traced with its Transfer event and both balances', async () => {
      const account = await createVersionAccount(service, version)
      const token = service.chain!.addresses.tokens[0]!
      await wallet.transact(token.address, {
        data: encodeFunctionData({
          abi: testTokenAbi,
          functionName: 'mint',
          args: [account.address, 1000n],
        }),
      })
      const recipient = randomAddress()
      const calls = [
        {
          to: token.address,
          data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [recipient, 100n] }),
        },
      ]
      const expectTransfer = (explanation: { events: unknown[]; balanceChanges: unknown[] }) => {
        // On a failure, the whole explanation (its notes say why a part is missing): seen empty in CI, not here.
        expect(explanation.events, describeExplanation(explanation)).toContainEqual({
          address: token.address,
          contract: token.symbol,
          name: 'Transfer',
          args: { from: account.address, to: recipient, value: '100' },
        })
        const moved = (address: Address, before: string, after: string, delta: string) =>
          expect.objectContaining({ address, asset: token.address, before, after, delta })
        expect(explanation.balanceChanges).toContainEqual(moved(account.address, '1000', '900', '-100'))
        expect(explanation.balanceChanges).toContainEqual(moved(recipient, '0', '100', '100'))
      }

      const estimate = await account.estimate(calls)
      expect(estimate.callGasLimit).toBeGreaterThan(0n)
      const simulated = await simulate(await account.signed(calls, LIMITS), entryPoint)
      expect(simulated).toMatchObject({ status: 'would-succeed', reason: null })
      expectTransfer(simulated)

      const hash = await account.send(calls, LIMITS)
      const receipt = await account.bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
      expect(receipt.success).toBe(true)
      const traced = await traceOf(hash)
      expect(traced).toMatchObject({ status: 'mined', reason: null })
      expect(traced.phases.every((p: { outcome: string }) => p.outcome === 'ok')).toBe(true)
      expectTransfer(traced)
    })

    // EIP-7702 operations start at v0.8.
    it.runIf(version === '0.8' || version === '0.9')(
      'an EIP-7702 authorization for another nonce of the EOA: the send, the simulation and the trace say why it is not applied',
      async () => {
        const { client, owner, account, bundlerClient } = await createSimple7702Client(
          service,
          version as '0.8' | '0.9',
        )
        const nonce = await client.getTransactionCount({ address: owner.address })
        const stale = await owner.signAuthorization({
          address: account.authorization.address,
          chainId: service.chain!.chainId,
          nonce: nonce + 5,
        })
        const calls = [{ to: randomAddress(), value: 1n }]
        const line = `AA20 account not deployed: EIP-7702 authorization no longer matches: it is for account nonce ${nonce + 5}, the account's nonce is ${nonce}`
        const viaViem = await rpcErrorOf(bundlerClient.sendUserOperation({ calls, authorization: stale }))
        expect(viaViem).toMatchObject({ code: -32500, message: line })

        // The same, signed with fixed limits: its send, its simulation and the trace of its rejected record.
        const prepared = await bundlerClient.prepareUserOperation({
          calls,
          ...LIMITS,
          authorization: stale,
        })
        const op = formatUserOperationRequest({
          ...prepared,
          signature: await account.signUserOperation(prepared),
        }) as Record<string, unknown>
        const sent = await rpcErrorOf(
          rawBundler(service).request({ method: 'eth_sendUserOperation', params: [op, entryPoint] } as never),
        )
        expect(sent).toMatchObject({ code: -32500, message: line })
        const authorization = {
          address: account.authorization.address,
          chainId: String(service.chain!.chainId),
          nonce: String(nonce + 5),
          signer: owner.address,
          applied: false,
          reasons: [`it is for nonce ${nonce + 5}, the sender's nonce was ${nonce}`],
          delegatedBefore: null,
        }
        const simulated = await simulate(op, entryPoint)
        expect(simulated.authorization).toEqual(authorization)
        // The rejected send's record: its simulation at rejection says the same.
        const traced = await traceOfRejected(simulated.userOpHash)
        expect(traced).toMatchObject({ status: 'rejected', authorization })
      },
    )
  },
)
