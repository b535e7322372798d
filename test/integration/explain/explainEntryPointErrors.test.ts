import {
  type Address,
  concat,
  encodeErrorResult,
  encodeFunctionData,
  type Hex,
  parseAbi,
  zeroAddress,
} from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { expectRejectionLine } from '../../helpers/expectRejectionLine'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, randomAddress } from '../bundler/bundlerTestKit'
import { callPaymaster, createDapp } from '../paymaster/paymasterTestKit'
import {
  createVersionAccount,
  deployExplainContracts,
  ENTRY_POINTS,
  type EntryPointVersion,
  type ExplainContracts,
  type ExplainFixture,
  LIMITS,
  rawBundler,
  rpcErrorOf,
} from './explainTestKit'

/**
 * A failure the EntryPoint itself names (its FailedOp codes, v0.9's custom errors, the checks it makes of the
 * operation's fields before any of its contracts runs) is answered with the same ERC-7769 code, message and data at
 * every surface: eth_estimateUserOperationGas, eth_sendUserOperation, the paymaster URL's estimate,
 * opstation_simulateUserOperation and the trace of the rejected operation. `data` carries the EntryPoint's revert
 * data with the AA code.
 */

let service: TestService
let contracts: ExplainContracts
let artifacts: ExplainFixture['artifacts']

const entryPointErrors = parseAbi([
  'error FailedOp(uint256 opIndex, string reason)',
  'error PaymasterNotDeployed(address paymaster)',
  'error InvalidPaymaster(address paymaster)',
  'error InvalidPaymasterSignatureLength(uint256 dataLength, uint256 pmSignatureLength)',
  'error Eip7702SenderWithoutCode(address sender)',
])

beforeAll(async () => {
  service = await getSharedTestService()
  ;({ contracts, artifacts } = await deployExplainContracts(service))
}, 90_000)

/** The JSON-RPC error of a bundler method called with `[op, entryPoint]`. */
function bundlerError(method: string, op: Record<string, unknown>, entryPoint: Address) {
  return rpcErrorOf(rawBundler(service).request({ method, params: [op, entryPoint] } as never))
}

async function simulate(op: Record<string, unknown>, entryPoint: Address) {
  const { body } = await callBundler(service, 'opstation_simulateUserOperation', [op, entryPoint])
  return body as { result?: any; error?: { code: number; message: string; data: any } }
}

async function traceOf(userOpHash: Hex) {
  const { body } = await callBundler(service, 'opstation_traceUserOperation', [userOpHash])
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

const withdraw = (amount: bigint) => [
  {
    to: contracts.vault,
    data: encodeFunctionData({ abi: artifacts.Vault!.abi, functionName: 'withdraw', args: [amount] }),
  },
]

/** The fields naming `paymaster` with `paymasterData`, in `version`'s form. */
function paidBy(version: EntryPointVersion, paymaster: Address, paymasterData: Hex = '0x00') {
  return version === '0.6'
    ? { paymasterAndData: concat([paymaster, paymasterData]) }
    : {
        paymaster,
        paymasterVerificationGasLimit: 50_000n,
        paymasterPostOpGasLimit: 50_000n,
        paymasterData,
      }
}

describe.each(Object.keys(ENTRY_POINTS) as EntryPointVersion[])(
  'on EntryPoint v%s, a paymaster without code',
  (version) => {
    const entryPoint = ENTRY_POINTS[version]

    it("is AA30 at the estimate and the send, with the EntryPoint's revert data", async () => {
      const paymaster = randomAddress()
      const account = await createVersionAccount(service, version, 0n)
      const op = await account.signed(withdraw(0n), { ...LIMITS, ...paidBy(version, paymaster) })
      // v0.9 names it with a custom error of its simulation contract; older versions with a FailedOp string.
      const expected =
        version === '0.9'
          ? {
              message: `PaymasterNotDeployed(${paymaster}) (AA30 paymaster not deployed)`,
              revertData: encodeErrorResult({
                abi: entryPointErrors,
                errorName: 'PaymasterNotDeployed',
                args: [paymaster],
              }),
            }
          : {
              message: 'AA30 paymaster not deployed',
              revertData: encodeErrorResult({
                abi: entryPointErrors,
                errorName: 'FailedOp',
                args: [0n, 'AA30 paymaster not deployed'],
              }),
            }
      for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
        const error = await bundlerError(method, op, entryPoint)
        expect({ method, code: error.code }).toEqual({ method, code: -32501 })
        expectRejectionLine(error, expected.message)
        expect(error.data).toMatchObject({ aaCode: 'AA30', revertData: expected.revertData })
      }
    })
  },
)

describe("EntryPoint v0.9's errors that have no frame: one code, message and data at every surface", () => {
  const entryPoint = ENTRY_POINTS['0.9']

  async function paidOperation(paymaster: Record<string, unknown>) {
    const account = await createVersionAccount(service, '0.9')
    return account.signed(withdraw(0n), { ...LIMITS, ...paidBy('0.9', contracts.paymaster), ...paymaster })
  }

  it('a paymaster signature length past the end of paymasterAndData (AA35) is refused as malformed (-32602) by the estimate, the send and the simulation', async () => {
    // paymasterData ending in v0.9's PAYMASTER_SIG_MAGIC after a length of 0xffff: no room for such a signature.
    const op = await paidOperation({ paymasterData: '0xffff22e325a297439656' })
    const expected = {
      code: -32602,
      message:
        'InvalidPaymasterSignatureLength(62, 65535) (AA35 malformed paymaster data): paymasterAndData names a ' +
        "65535-byte paymaster signature, longer than the 0 bytes after the paymaster's gas limits",
      data: {
        aaCode: 'AA35',
        phase: 'paymaster-validation',
        revertData: encodeErrorResult({
          abi: entryPointErrors,
          errorName: 'InvalidPaymasterSignatureLength',
          args: [62n, 65535n],
        }),
      },
    }
    for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation'])
      expect({ method, ...(await bundlerError(method, op, entryPoint)) }).toMatchObject({
        method,
        ...expected,
      })
    expect((await simulate(op, entryPoint)).error).toMatchObject(expected)
  })

  it('a paymaster of address zero is the InvalidPaymaster (AA98) handleOps reverts with, at the estimate, the send, the simulation and the trace', async () => {
    const op = await paidOperation({ paymaster: zeroAddress })
    const message = `InvalidPaymaster(${zeroAddress}) (AA98 invalid paymaster)`
    const data = {
      aaCode: 'AA98',
      phase: 'paymaster-validation',
      revertData: encodeErrorResult({
        abi: entryPointErrors,
        errorName: 'InvalidPaymaster',
        args: [zeroAddress],
      }),
    }
    for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
      const error = await bundlerError(method, op, entryPoint)
      expect({ method, ...error }).toMatchObject({ method, code: -32602, data })
      expectRejectionLine(error, message)
    }
    const { result: simulated } = await simulate(op, entryPoint)
    expect(simulated).toMatchObject({ status: 'rejected', reason: message, phases: [] })
    // The rejected send's record: the same one cause, and no other told beside it.
    const traced = await traceOf(simulated.userOpHash)
    expect(traced).toMatchObject({ status: 'rejected', reason: message })
    expect(traced.notes.filter((note: string) => note.startsWith('simulated:'))).toEqual([])
  })

  it("an EIP-7702 account's 0x7702 operation without its authorization, estimated: Eip7702SenderWithoutCode is an account-validation rejection (-32500), at the bundler's and the paymaster's estimate", async () => {
    const account = await createVersionAccount(service, '0.9')
    const { eip7702Auth: _, ...op } = await account.signed(withdraw(0n), LIMITS)
    expect(op.factory).toBe('0x7702')
    const message = `Eip7702SenderWithoutCode(${account.address}) (the sender has no code: its EIP-7702 authorization was not applied)`
    const expected = {
      code: -32500,
      data: {
        phase: 'account-validation',
        revertData: encodeErrorResult({
          abi: entryPointErrors,
          errorName: 'Eip7702SenderWithoutCode',
          args: [account.address],
        }),
      },
    }
    const estimated = await bundlerError('eth_estimateUserOperationGas', op, entryPoint)
    expect(estimated).toMatchObject(expected)
    expectRejectionLine(estimated, message)
    const { apiKey } = await createDapp(service)
    const { body } = await callPaymaster(service, apiKey, 'pm_getPaymasterData', [
      op,
      entryPoint,
      `0x${service.chain!.chainId.toString(16)}`,
      { mode: 'SPONSORED' },
    ])
    expect(body.error).toMatchObject(expected)
    expectRejectionLine(body.error, message)
  })
})
