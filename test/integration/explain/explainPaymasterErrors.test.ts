import { encodeFunctionData, type Hex, hexToBigInt, http } from 'viem'
import { createPaymasterClient } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import { expectRejectionLine } from '../../helpers/expectRejectionLine'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  buildSponsorRequestOpV07,
  callPaymaster,
  createDapp,
  sponsoredContext,
} from '../paymaster/paymasterTestKit'
import {
  badSignatureOperation,
  deployExplainContracts,
  type ExplainContracts,
  type ExplainFixture,
  rpcErrorOf,
} from './explainTestKit'

/**
 * The paymaster URL's estimates fail as the bundler's do: pm_sponsorUserOperation (Biconomy), pm_getFeeQuoteOrData
 * and ERC-7677's pm_getPaymasterData (through viem's paymaster client) keep their code and HTTP 4xx, and their
 * message names the phase, the frame and the decoded reason, with the same fields in `data`. The contracts are the
 * test's own (test/fixtures/contracts/ExplainContracts.sol), registered with their ABIs.
 */

let service: TestService
let contracts: ExplainContracts
let artifacts: ExplainFixture['artifacts']
let apiKey: string
let paymasterUrl: string

beforeAll(async () => {
  service = await getSharedTestService()
  ;({ contracts, artifacts } = await deployExplainContracts(service))
  ;({ apiKey, paymasterUrl } = await createDapp(service))
}, 60_000)

/** Vault.withdraw(amount): the Ledger under it reverts InsufficientBalance(0, amount) for a new account. */
const withdraw = (amount: bigint) => ({
  to: contracts.vault,
  data: encodeFunctionData({ abi: artifacts.Vault!.abi, functionName: 'withdraw', args: [amount] }),
})

const nestedRevert = (amount: bigint) => ({
  line: `execution reverted in Ledger.debit(address,uint256) at ${contracts.ledger}: InsufficientBalance(0, ${amount})`,
  fields: {
    phase: 'execution',
    address: contracts.ledger,
    contract: 'Ledger',
    function: 'debit(address,uint256)',
    reason: `InsufficientBalance(0, ${amount})`,
    revertData: expect.stringMatching(/^0x/),
  },
})

const aa23 = () => ({
  line: new RegExp(
    `^AA23 reverted in BadSignatureAccount\\.validateUserOp\\(.*\\) at ${contracts.badAccount}: BadSignature\\(\\)$`,
  ),
  fields: {
    aaCode: 'AA23',
    phase: 'account-validation',
    address: contracts.badAccount,
    contract: 'BadSignatureAccount',
    function: expect.stringMatching(/^validateUserOp\(/),
    reason: 'BadSignature()',
    revertData: '0x5cd5d233',
  },
})

async function paymasterError(method: string, params: unknown[]) {
  const { status, body } = await callPaymaster(service, apiKey, method, params)
  return { status, ...(body.error as { code: number; message: string; data: any }) }
}

/** viem's paymaster client asking pm_getPaymasterData for an operation given in the wire form (no gas limits). */
function getPaymasterData(
  op: Record<string, unknown> & { sender: Hex; callData: Hex; nonce: string },
  context: Record<string, unknown> = { mode: 'SPONSORED' },
) {
  const quantity = (v: unknown) => (typeof v === 'string' ? hexToBigInt(v as Hex) : undefined)
  return createPaymasterClient({ transport: http(paymasterUrl, { retryCount: 0 }) }).getPaymasterData({
    ...op,
    nonce: hexToBigInt(op.nonce as Hex),
    maxFeePerGas: quantity(op.maxFeePerGas),
    maxPriorityFeePerGas: quantity(op.maxPriorityFeePerGas),
    chainId: service.chain!.chainId,
    entryPointAddress: service.chain!.addresses.entryPointV07,
    context,
  })
}

describe("the paymaster URL's estimate errors name the phase, the frame and the decoded reason", () => {
  it('pm_sponsorUserOperation (Biconomy, v0.6): a nested custom-error revert is -32521 naming Ledger.debit', async () => {
    const { line, fields } = nestedRevert(3n)
    const op = await buildSponsorRequestOp(service, undefined, withdraw(3n))
    const error = await paymasterError('pm_sponsorUserOperation', [op, sponsoredContext()])
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: -32521 })
    expectRejectionLine(error, line)
    expect(error.data).toMatchObject(fields)
  })

  it('pm_getFeeQuoteOrData (ERC20): its estimate without the paymaster fails the same way', async () => {
    const { line, fields } = nestedRevert(4n)
    const op = await buildSponsorRequestOp(service, undefined, withdraw(4n))
    const error = await paymasterError('pm_getFeeQuoteOrData', [
      op,
      { mode: 'ERC20', tokenInfo: { tokenList: [] } },
    ])
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: -32521 })
    expectRejectionLine(error, line)
    expect(error.data).toMatchObject(fields)
  })

  it('pm_sponsorUserOperation (v0.7, the EntryPoint in the context): an AA23 names BadSignatureAccount and BadSignature()', async () => {
    const { line, fields } = aa23()
    const error = await paymasterError('pm_sponsorUserOperation', [
      await badSignatureOperation(service, contracts.badAccount, false),
      sponsoredContext({ entryPoint: service.chain!.addresses.entryPointV07 }),
    ])
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: -32500 })
    expectRejectionLine(error, line)
    expect(error.data).toMatchObject(fields)
  })

  it("ERC-7677 pm_getPaymasterData through viem's paymaster client: the nested revert and the AA23", async () => {
    const nested = nestedRevert(5n)
    const reverted = await rpcErrorOf(getPaymasterData(await buildSponsorRequestOpV07(service, withdraw(5n))))
    expect(reverted.code).toBe(-32521)
    expectRejectionLine(reverted, nested.line)
    expect(reverted.data).toMatchObject(nested.fields)

    const { line, fields } = aa23()
    const rejected = await rpcErrorOf(
      getPaymasterData(await badSignatureOperation(service, contracts.badAccount, false)),
    )
    expect(rejected.code).toBe(-32500)
    expectRejectionLine(rejected, line)
    expect(rejected.data).toMatchObject(fields)
  })

  it('ERC-7677 in ERC20 mode (the token paymaster signing each trial): the nested revert names Ledger.debit', async () => {
    const nested = nestedRevert(6n)
    const token = service.chain!.addresses.tokens[0]!.address
    const error = await rpcErrorOf(
      getPaymasterData(await buildSponsorRequestOpV07(service, withdraw(6n)), {
        mode: 'ERC20',
        tokenInfo: { feeTokenAddress: token },
      }),
    )
    expect(error.code).toBe(-32521)
    expectRejectionLine(error, nested.line)
    expect(error.data).toMatchObject(nested.fields)
  })
})
