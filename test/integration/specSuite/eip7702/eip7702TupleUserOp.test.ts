import { type Address, type Hex, parseAbi, toEventSelector } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { fundEth } from '../../../../src/main/service/chain'
import { getSharedTestService } from '../../../helpers/sharedTestService'
import { hex } from '../../bundler/bundlerTestKit'
import {
  createMempoolRuleKit,
  type DeployedContract,
  type MempoolRuleKit,
  type RpcOperation,
} from '../harness/mempoolRuleKit'

/**
 * The ERC-4337 test suite's tests/single/eip7702/test_eip7702_tuple_userop.py (eth-infinitism/bundler-spec-tests) on
 * EntryPoint v0.8: an EOA's operation carrying its EIP-7702 authorization (`eip7702Auth`) to a wallet of our own
 * playing the suite's SimpleWallet. On the worker's shared service, bundling manual while the file runs (restored to
 * auto after it); state cleared before each scenario, as the suite's fixture does.
 */
let kit: MempoolRuleKit
let implementation: DeployedContract
let chainId: number

beforeAll(async () => {
  kit = createMempoolRuleKit(await getSharedTestService())
  chainId = kit.chain.chainId
  implementation = await kit.deploy('SpecWallet', [], 0n)
}, 120_000)
afterAll(() => kit?.call('debug_bundler_setBundlingMode', ['auto']))
beforeEach(async () => {
  await kit.clearState()
  await kit.setManualBundling()
})

/** A new EOA; `fund` wei are sent to it first (the suite's fund). */
async function createEoa(fund = 10n ** 18n) {
  const eoa = privateKeyToAccount(generatePrivateKey())
  if (fund > 0n) await fundEth(kit.chain, eoa.address, fund)
  return eoa
}

type Eoa = Awaited<ReturnType<typeof createEoa>>

/** The suite's TupleEIP7702 in ERC-7769's `eip7702Auth` form: `signer` delegates to the implementation. */
async function signTuple(signer: Eoa, { chain = chainId, nonce = 0 } = {}) {
  const auth = await signer.signAuthorization({ address: implementation.address, chainId: chain, nonce })
  return {
    address: auth.address,
    chainId: hex(BigInt(auth.chainId)),
    nonce: hex(BigInt(auth.nonce)),
    r: auth.r,
    s: auth.s,
    yParity: hex(BigInt(auth.yParity ?? 0)),
  }
}

/** The suite's `userop` fixture (setState(1111111), signed 0xface) for `sender`. */
const buildOperation = (sender: Address, fields: Record<string, unknown> = {}) =>
  kit.buildOperation({
    sender,
    callData: implementation.encode('setState', [1_111_111n]),
    signature: '0xface',
    ...(fields as Partial<RpcOperation>),
  })

const codeOf = async (address: Address) => (await kit.chain.publicClient.getCode({ address })) ?? '0x'
const stateOf = (address: Address) => kit.attach('SpecWallet', address).read('state') as Promise<bigint>
const delegationTo = (delegate: Address): Hex => `0xef0100${delegate.slice(2).toLowerCase()}`
const entryPointNonce = (sender: Address) =>
  kit.chain.publicClient.readContract({
    address: kit.entryPoint,
    abi: parseAbi(['function getNonce(address sender, uint192 key) view returns (uint256)']),
    functionName: 'getNonce',
    args: [sender, 0n],
  })
const HASH = /^0x[0-9a-f]{64}$/

const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)',
)

/**
 * Sends `op`, expects it accepted, bundles it, and expects the hash the bundler answered to be the EntryPoint's: the
 * bundle transaction's UserOperationEvent (on the node) carries it (the suite compares it with getUserOpHash).
 */
async function sendAndBundle(op: Record<string, unknown>): Promise<Hex> {
  const reply = await kit.send(op as RpcOperation)
  expect(reply.error?.message ?? null).toBeNull()
  expect(reply.result).toMatch(HASH)
  await kit.sendBundleNow()
  const receipt = await kit.receiptOf(reply.result)
  const bundle = await kit.chain.publicClient.getTransactionReceipt({ hash: receipt.receipt.transactionHash })
  const events = bundle.logs.filter((log) => log.topics[0] === USER_OPERATION_EVENT)
  expect(events.map((log) => log.topics[1])).toContain(reply.result)
  return reply.result
}

describe('test_eip7702_tuple_userop.py', () => {
  it("test_send_eip_7702_tx: an EOA's operation with its authorization is bundled, the EOA delegates and keeps state", async () => {
    const eoa = await createEoa()
    expect(await codeOf(eoa.address)).toBe('0x')
    await sendAndBundle({ ...(await buildOperation(eoa.address)), eip7702Auth: await signTuple(eoa) })
    expect(await codeOf(eoa.address)).toBe(delegationTo(implementation.address))
    expect(await stateOf(eoa.address)).toBe(1_111_111n)
  }, 60_000)

  it('test_send_eip_7702_tx_with_initcode: the 0x7702 factory flag runs factoryData on the delegated EOA', async () => {
    const eoa = await createEoa()
    // The execution reverts: the state the EOA ends with is the one factoryData set in validation.
    const op = await buildOperation(eoa.address, {
      factory: '0x7702',
      factoryData: implementation.encode('setState', [7702n]),
      callData: implementation.encode('fail'),
    })
    await sendAndBundle({ ...op, eip7702Auth: await signTuple(eoa) })
    expect(await codeOf(eoa.address)).toBe(delegationTo(implementation.address))
    expect(await stateOf(eoa.address)).toBe(7702n)
  }, 60_000)

  it('test_send_eip_7702_tx_with_flag_no_initcode: the 0x7702 flag without factoryData delegates the EOA', async () => {
    const eoa = await createEoa()
    const op = await buildOperation(eoa.address, {
      factory: '0x7702',
      callData: implementation.encode('fail'),
    })
    await sendAndBundle({ ...op, eip7702Auth: await signTuple(eoa) })
    expect(await codeOf(eoa.address)).toBe(delegationTo(implementation.address))
  }, 60_000)

  for (const chain of ['0', 'this chain'] as const) {
    it(`test_send_post_eip_7702_tx[chainid ${chain}]: once delegated, the EOA sends a plain operation`, async () => {
      const eoa = await createEoa()
      const nonce = await kit.chain.publicClient.getTransactionCount({ address: eoa.address })
      const auth = await signTuple(eoa, { chain: chain === '0' ? 0 : chainId, nonce })
      await sendAndBundle({ ...(await buildOperation(eoa.address)), eip7702Auth: auth })
      const before = await stateOf(eoa.address)
      const plain = await buildOperation(eoa.address, {
        nonce: hex(await entryPointNonce(eoa.address)),
        callData: implementation.encode('setState', [before + 1n]),
      })
      await sendAndBundle(plain)
      expect(await stateOf(eoa.address)).toBe(before + 1n)
    }, 60_000)
  }

  it('test_send_bad_eip_7702_drop_userop: an authorization for a later nonce of the EOA is refused (-32500)', async () => {
    const eoa = await createEoa()
    const nonce = await kit.chain.publicClient.getTransactionCount({ address: eoa.address })
    const reply = await kit.send({
      ...(await buildOperation(eoa.address)),
      eip7702Auth: await signTuple(eoa, { nonce: nonce + 2 }),
    } as never)
    expect(reply.error).toMatchObject({ code: -32500 })
  }, 60_000)

  it('test_send_nonsender_eip_7702_drop_userop: an authorization signed by another than the sender is refused (-32602, "sender")', async () => {
    const wallet = await kit.deploy('SpecWallet')
    const stranger = await createEoa(0n)
    const reply = await kit.send({
      ...(await buildOperation(wallet.address)),
      eip7702Auth: await signTuple(stranger),
    } as never)
    expect(reply.error).toMatchObject({ code: -32602 })
    expect(reply.error.message.toLowerCase()).toContain('sender')
  }, 60_000)

  it("test_send_wrongchain_eip_7702_drop_userop: an authorization for another chain is refused (-32602, 'chainid')", async () => {
    const eoa = await createEoa()
    const op = await buildOperation(eoa.address)
    await sendAndBundle({ ...op, eip7702Auth: await signTuple(eoa) })
    expect((await codeOf(eoa.address)).length).toBe(2 + 2 * 23)
    const nonce = await kit.chain.publicClient.getTransactionCount({ address: eoa.address })
    const reply = await kit.send({
      ...op,
      nonce: hex(await entryPointNonce(eoa.address)),
      eip7702Auth: await signTuple(eoa, { chain: 1234, nonce }),
    } as never)
    expect(reply.error).toMatchObject({ code: -32602 })
    expect(reply.error.message.toLowerCase()).toContain('chainid')
  }, 60_000)
})
