import { randomBytes } from 'node:crypto'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
} from 'viem'
import { entryPoint06Abi, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey } from 'viem/accounts'
import { toLibsecp256k1Account } from '../src/main/service/chain/keys/toLibsecp256k1Account'
import type { UserOperationV06 } from '../src/main/service/entryPoint'
import { createRpc, waitForReceipt } from './createRpc'

/** The RPCs of one SDK operation, in the order an SDK sends them, and the whole operation (ms each). */
export type SdkLoopTimings = {
  nonce: number[]
  gasPrice: number[]
  stub: number[]
  estimate: number[]
  paymasterData: number[]
  send: number[]
  receipt: number[]
  operation: number[]
  /** The service's CPU (ms, summed over the operations) from each step's request to its answer. */
  serviceCpuMs: Record<(typeof SDK_LOOP_STEPS)[number], number>
}

export const SDK_LOOP_STEPS = [
  'nonce',
  'gasPrice',
  'stub',
  'estimate',
  'paymasterData',
  'send',
  'receipt',
] as const

const toRpcOperation = (op: UserOperationV06) =>
  Object.fromEntries(Object.entries(op).map(([k, v]) => [k, typeof v === 'bigint' ? numberToHex(v) : v]))

/**
 * One SDK user on EntryPoint v0.6, sponsored by a dApp's paymaster: the sequential loop viem's bundler client with an
 * ERC-7677 paymaster runs for one operation: the account's nonce (EntryPoint `getNonce`, an `eth_call`) and the gas
 * price (viem's `estimateFeesPerGas`: the latest block and `eth_maxPriorityFeePerGas`) from the chain's RPC URL,
 * `pm_getPaymasterStubData`, `eth_estimateUserOperationGas` with the stub,
 * `pm_getPaymasterData` with the estimated limits, the owner's signature (libsecp256k1, viem's signatures),
 * `eth_sendUserOperation`, then `eth_getUserOperationReceipt` until it comes. Each operation pays 1 wei to a fresh
 * address from the account's own balance.
 */
export async function createSdkLoopClient(options: {
  rpcUrl: string
  bundlerUrl: string
  paymasterUrl: string
  chainId: number
  /** The service's CPU time so far (ms), read around each step. */
  readServiceCpuMs: () => number
}) {
  const rpc = createRpc()
  const chain = defineChain({
    id: options.chainId,
    name: 'bench',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  })
  const account = await toSimpleSmartAccount({
    client: createPublicClient({ chain, transport: http(options.rpcUrl) }),
    owner: toLibsecp256k1Account(generatePrivateKey()),
    entryPoint: { address: entryPoint06Address, version: '0.6' },
  })
  await rpc(options.rpcUrl, 'anvil_setBalance', [account.address, numberToHex(10n ** 20n)])
  const chainIdHex = numberToHex(options.chainId)
  let deployed = false
  const getNonceCall = {
    to: entryPoint06Address,
    data: encodeFunctionData({
      abi: entryPoint06Abi,
      functionName: 'getNonce',
      args: [account.address, 0n],
    }),
  }

  /** One operation, each RPC timed; the first deploys the account through initCode. */
  async function runOperation(timings: SdkLoopTimings): Promise<void> {
    const started = performance.now()
    const timed = async <T>(step: (typeof SDK_LOOP_STEPS)[number], call: () => Promise<T>): Promise<T> => {
      const cpu = options.readServiceCpuMs()
      const t = performance.now()
      const result = await call()
      timings[step].push(performance.now() - t)
      timings.serviceCpuMs[step] += options.readServiceCpuMs() - cpu
      return result
    }
    let initCode: Hex = '0x'
    if (!deployed) {
      const { factory, factoryData } = await account.getFactoryArgs()
      initCode = `${factory}${(factoryData as string).slice(2)}` as Hex
    }
    const to = `0x${randomBytes(20).toString('hex')}` as Address
    const callData = await account.encodeCalls([{ to, value: 1n }])
    const nonce = await timed('nonce', async () =>
      BigInt(await rpc(options.rpcUrl, 'eth_call', [getNonceCall, 'latest'])),
    )
    // viem's estimateFeesPerGas: the latest block's base fee and the node's priority fee, as two calls in parallel.
    const [block, priorityFee] = await timed('gasPrice', () =>
      Promise.all([
        rpc(options.rpcUrl, 'eth_getBlockByNumber', ['latest', false]),
        rpc(options.rpcUrl, 'eth_maxPriorityFeePerGas', []),
      ]),
    )
    const maxPriorityFeePerGas = BigInt(priorityFee)
    const op: UserOperationV06 = {
      sender: account.address,
      nonce,
      initCode,
      callData,
      callGasLimit: 0n,
      verificationGasLimit: 0n,
      preVerificationGas: 0n,
      maxFeePerGas: (BigInt(block.baseFeePerGas) * 12n) / 10n + maxPriorityFeePerGas,
      maxPriorityFeePerGas,
      paymasterAndData: '0x',
      signature: await account.getStubSignature(),
    }
    const erc7677 = (method: string) =>
      rpc(options.paymasterUrl, method, [
        toRpcOperation(op),
        entryPoint06Address,
        chainIdHex,
        { mode: 'SPONSORED' },
      ])
    const stub = await timed('stub', () => erc7677('pm_getPaymasterStubData'))
    op.paymasterAndData = stub.paymasterAndData
    const limits = await timed('estimate', () =>
      rpc(options.bundlerUrl, 'eth_estimateUserOperationGas', [toRpcOperation(op), entryPoint06Address]),
    )
    op.callGasLimit = BigInt(limits.callGasLimit)
    op.verificationGasLimit = BigInt(limits.verificationGasLimit)
    op.preVerificationGas = BigInt(limits.preVerificationGas)
    const data = await timed('paymasterData', () => erc7677('pm_getPaymasterData'))
    op.paymasterAndData = data.paymasterAndData
    op.signature = await account.signUserOperation(op as never)
    const hash = await timed('send', () =>
      rpc(options.bundlerUrl, 'eth_sendUserOperation', [toRpcOperation(op), entryPoint06Address]),
    )
    await timed('receipt', () => waitForReceipt(rpc, options.bundlerUrl, hash))
    timings.operation.push(performance.now() - started)
    deployed = true
  }

  return {
    /** Runs `count` operations one after another and returns their timings. */
    async runOperations(count: number): Promise<SdkLoopTimings> {
      const timings: SdkLoopTimings = {
        nonce: [],
        gasPrice: [],
        stub: [],
        estimate: [],
        paymasterData: [],
        send: [],
        receipt: [],
        operation: [],
        serviceCpuMs: Object.fromEntries(
          SDK_LOOP_STEPS.map((step) => [step, 0]),
        ) as SdkLoopTimings['serviceCpuMs'],
      }
      for (let n = 0; n < count; n++) await runOperation(timings)
      return timings
    },
  }
}
