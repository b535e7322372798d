import { randomBytes } from 'node:crypto'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { type Address, createPublicClient, defineChain, type Hex, http, numberToHex } from 'viem'
import { entryPoint06Address, entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toLibsecp256k1Account } from '../src/main/service/chain/keys/toLibsecp256k1Account'
import type { UserOperationV06 } from '../src/main/service/entryPoint'
import { createRpc, waitForReceipt } from './createRpc'

export type Op = UserOperationV06

/** Latencies (ms) of one client's operations, and gas used against the estimated limits. */
export type Timings = {
  /** The operations' userOpHashes, in the order they were sent. */
  hashes: Hex[]
  estimate: number[]
  send: number[]
  sendToReceipt: number[]
  gas: { limits: bigint; used: bigint }[]
}

/** eth_estimateUserOperationGas's answer (spec 2.3: limits as numbers, fees as decimal strings). */
export type Estimate = {
  callGasLimit: number
  verificationGasLimit: number
  preVerificationGas: number
  maxFeePerGas: string
  maxPriorityFeePerGas: string
}

export type BenchClientOptions = {
  rpcUrl: string
  bundlerUrl: string
  chainId: number
  /** The account's EntryPoint (default v0.6). */
  entryPointVersion?: '0.6' | '0.7'
}

/** A v0.7 operation in its RPC form (factory and paymaster fields only when present). */
const toRpcOperationV07 = (op: Op) => ({
  sender: op.sender,
  nonce: numberToHex(op.nonce),
  ...(op.initCode !== '0x'
    ? { factory: op.initCode.slice(0, 42), factoryData: `0x${op.initCode.slice(42)}` }
    : {}),
  callData: op.callData,
  callGasLimit: numberToHex(op.callGasLimit),
  verificationGasLimit: numberToHex(op.verificationGasLimit),
  preVerificationGas: numberToHex(op.preVerificationGas),
  maxFeePerGas: numberToHex(op.maxFeePerGas),
  maxPriorityFeePerGas: numberToHex(op.maxPriorityFeePerGas),
  signature: op.signature,
})

const emptyOp: Op = {
  sender: '0x0000000000000000000000000000000000000000',
  nonce: 0n,
  initCode: '0x',
  callData: '0x',
  callGasLimit: 0n,
  verificationGasLimit: 0n,
  preVerificationGas: 0n,
  maxFeePerGas: 0n,
  maxPriorityFeePerGas: 0n,
  paymasterAndData: '0x',
  signature: '0x',
}
const emptyTimings = (): Timings => ({ hashes: [], estimate: [], send: [], sendToReceipt: [], gas: [] })
const toRpcOperation = (op: Op) =>
  Object.fromEntries(Object.entries(op).map(([k, v]) => [k, typeof v === 'bigint' ? numberToHex(v) : v]))
const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as Address

/**
 * One user of the bench: a viem smart account (permissionless `toSimpleSmartAccount`, EntryPoint v0.6 or v0.7) whose
 * owner signs with libsecp256k1 (`BENCH_SIGNER=viem`: viem's own signer), talking to the service over HTTP.
 */
export async function createBenchClient(options: BenchClientOptions) {
  const rpc = createRpc()
  const chain = defineChain({
    id: options.chainId,
    name: 'bench',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  })
  const key = generatePrivateKey()
  const owner = process.env.BENCH_SIGNER === 'viem' ? privateKeyToAccount(key) : toLibsecp256k1Account(key)
  const v07 = options.entryPointVersion === '0.7'
  const entryPoint = v07 ? entryPoint07Address : entryPoint06Address
  const account = await toSimpleSmartAccount({
    client: createPublicClient({ chain, transport: http(options.rpcUrl) }),
    owner,
    entryPoint: v07
      ? { address: entryPoint07Address, version: '0.7' }
      : { address: entryPoint06Address, version: '0.6' },
  })
  /** The operation as viem's v0.7 account signs it (factory/factoryData instead of initCode). */
  const signable = (op: Op) =>
    v07
      ? {
          ...op,
          initCode: undefined,
          paymasterAndData: undefined,
          ...(op.initCode !== '0x'
            ? {
                factory: op.initCode.slice(0, 42) as Address,
                factoryData: `0x${op.initCode.slice(42)}` as Hex,
              }
            : {}),
        }
      : op
  await rpc(options.rpcUrl, 'anvil_setBalance', [account.address, numberToHex(10n ** 20n)])
  let nonce = 0n

  const estimate = async (partial: { nonce: bigint; initCode: Hex; callData: Hex }): Promise<Estimate> => {
    const signature = await account.getStubSignature()
    const result = await rpc(options.bundlerUrl, 'eth_estimateUserOperationGas', [
      v07
        ? (({ sender, nonce, factory, factoryData, callData }) => ({
            sender,
            nonce,
            factory,
            factoryData,
            callData,
            signature,
          }))(toRpcOperationV07({ ...emptyOp, sender: account.address, ...partial, signature }) as never)
        : {
            sender: account.address,
            nonce: numberToHex(partial.nonce),
            initCode: partial.initCode,
            callData: partial.callData,
            paymasterAndData: '0x',
            signature,
          },
      entryPoint,
    ])
    // v0.7 answers quantities as 0x-hex: the same numbers.
    return v07
      ? {
          callGasLimit: Number(BigInt(result.callGasLimit)),
          verificationGasLimit: Number(BigInt(result.verificationGasLimit)),
          preVerificationGas: Number(BigInt(result.preVerificationGas)),
          maxFeePerGas: BigInt(result.maxFeePerGas).toString(),
          maxPriorityFeePerGas: BigInt(result.maxPriorityFeePerGas).toString(),
        }
      : result
  }
  const send = (op: Op): Promise<Hex> =>
    rpc(options.bundlerUrl, 'eth_sendUserOperation', [
      v07 ? toRpcOperationV07(op) : toRpcOperation(op),
      entryPoint,
    ])
  const selfCall = () => account.encodeCalls([{ to: account.address, value: 0n }])
  /** 1 wei to a fresh address (an address only: deriving one from a new key costs ~0.7 ms of shared CPU). */
  const transferToFreshAddress = () => account.encodeCalls([{ to: randomAddress(), value: 1n }])

  /** Estimate → sign → send → receipt for one operation, timing each step against the service. */
  async function runOperation(timings: Timings, initCode: Hex, toSelf: boolean) {
    // A fresh recipient per operation (an address only: deriving one from a new key costs ~0.7 ms of the CPU the
    // bench shares with the service), or the account itself (the chain gains no account).
    const callData = toSelf ? await selfCall() : await transferToFreshAddress()
    let t = performance.now()
    const estimated = await estimate({ nonce, initCode, callData })
    timings.estimate.push(performance.now() - t)
    const op: Op = {
      sender: account.address,
      nonce,
      initCode,
      callData,
      callGasLimit: BigInt(estimated.callGasLimit),
      verificationGasLimit: BigInt(estimated.verificationGasLimit),
      preVerificationGas: BigInt(estimated.preVerificationGas),
      maxFeePerGas: BigInt(estimated.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(estimated.maxPriorityFeePerGas),
      paymasterAndData: '0x',
      signature: '0x',
    }
    op.signature = await account.signUserOperation(signable(op) as never)
    t = performance.now()
    const hash = await send(op)
    timings.send.push(performance.now() - t)
    timings.hashes.push(hash)
    nonce++
    const receipt = await waitForReceipt(rpc, options.bundlerUrl, hash)
    timings.sendToReceipt.push(performance.now() - t)
    timings.gas.push({
      limits: op.callGasLimit + op.verificationGasLimit + op.preVerificationGas,
      used: BigInt(receipt.actualGasUsed),
    })
  }

  return {
    address: account.address,
    /**
     * Runs `count` operations one after another; the first deploys the account through initCode if asked. Each pays
     * a fresh address, or the account itself with `toSelf`.
     */
    async runOperations(count: number, { deploy = false, toSelf = false } = {}): Promise<Timings> {
      const timings = emptyTimings()
      for (let n = 0; n < count; n++) {
        let initCode: Hex = '0x'
        if (deploy && n === 0) {
          const { factory, factoryData } = await account.getFactoryArgs()
          initCode = `${factory}${(factoryData as string).slice(2)}` as Hex
        }
        await runOperation(timings, initCode, toSelf)
      }
      return timings
    },
    /** Estimates a call of the account to itself (the burst's template) at a nonce (default: the next one). */
    async estimateSelfCall(atNonce: bigint = nonce): Promise<Estimate> {
      return estimate({ nonce: atNonce, initCode: '0x', callData: await selfCall() })
    },
    /** Estimates a payment of 1 wei to a fresh address at the next nonce (the template of `toFreshAddresses`). */
    async estimateTransfer(): Promise<Estimate> {
      return estimate({ nonce, initCode: '0x', callData: await transferToFreshAddress() })
    },
    /**
     * Signs `count` calls of the account to itself with the template's limits (preVerificationGas +200 and twice
     * the fee, so that they never fall short), at nonces from `nonceBase` (default: the next ones, which are then
     * taken). `toFreshAddresses`: each pays 1 wei to a fresh address instead (template: `estimateTransfer`).
     */
    async signSelfCalls(
      count: number,
      template: Estimate,
      nonceBase?: bigint,
      { toFreshAddresses = false } = {},
    ): Promise<Op[]> {
      const first = nonceBase ?? nonce
      const callData = await selfCall()
      const ops: Op[] = []
      for (let n = 0; n < count; n++) {
        const op: Op = {
          sender: account.address,
          nonce: first + BigInt(n),
          initCode: '0x',
          callData: toFreshAddresses ? await transferToFreshAddress() : callData,
          callGasLimit: BigInt(template.callGasLimit),
          verificationGasLimit: BigInt(template.verificationGasLimit),
          preVerificationGas: BigInt(template.preVerificationGas) + 200n,
          maxFeePerGas: BigInt(template.maxFeePerGas) * 2n,
          maxPriorityFeePerGas: BigInt(template.maxPriorityFeePerGas),
          paymasterAndData: '0x',
          signature: '0x',
        }
        op.signature = await account.signUserOperation(signable(op) as never)
        ops.push(op)
      }
      if (nonceBase === undefined) nonce += BigInt(count)
      return ops
    },
    /** Sends operations back to back, each as soon as the last was accepted; their hashes and send latencies. */
    async sendOperations(ops: Op[]): Promise<{ hashes: Hex[]; sendMs: number[] }> {
      const hashes: Hex[] = []
      const sendMs: number[] = []
      for (const op of ops) {
        const t = performance.now()
        hashes.push(await send(op))
        sendMs.push(performance.now() - t)
      }
      return { hashes, sendMs }
    },
  }
}
