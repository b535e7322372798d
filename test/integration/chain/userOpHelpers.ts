import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Address,
  concat,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem'
import { afterAll, beforeAll } from 'vitest'
import {
  type Chain,
  ecdsaModuleAbi,
  entryPointAbi,
  smartAccountAbi,
  smartAccountFactoryAbi,
  startChain,
} from '../../../src/main/service/chain'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { computeUserOpHash } from '../../../src/main/service/entryPoint/v06/computeUserOpHash'
import { seedWithChainTemplate } from '../../helpers/startTestService'

/** A fresh data folder for one test file. */
export async function makeDataDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'opstation-chain-'))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/**
 * Starts an embedded chain before the tests of the enclosing describe (or file), in a new data folder holding the
 * run's deployed chain (seedWithChainTemplate), and stops it after them; `onStarted` receives it.
 */
export function withEmbeddedChain(onStarted: (chain: Chain) => void): void {
  let dataDir: Awaited<ReturnType<typeof makeDataDir>> | undefined
  let chain: Chain | undefined
  beforeAll(async () => {
    dataDir = await makeDataDir()
    await seedWithChainTemplate(dataDir.dir)
    chain = await startChain({ dataDir: dataDir.dir })
    onStarted(chain)
  })
  afterAll(async () => {
    await chain?.stop()
    await dataDir?.remove()
  })
}

/** Fees that pass on the current base fee. */
export async function getFees(chain: Chain): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const block = await chain.publicClient.getBlock()
  const maxPriorityFeePerGas = 1_000_000_000n
  return { maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas }
}

/** initCode of a Biconomy SA v2 with the ECDSA module for `owner` (what the SDK builds). */
export function getSmartAccountInitCode(chain: Chain, owner: Address, index = 0n): Hex {
  const setup = encodeFunctionData({
    abi: ecdsaModuleAbi,
    functionName: 'initForSmartAccount',
    args: [owner],
  })
  return concat([
    chain.addresses.smartAccountFactory,
    encodeFunctionData({
      abi: smartAccountFactoryAbi,
      functionName: 'deployCounterFactualAccount',
      args: [chain.addresses.ecdsaModule, setup, index],
    }),
  ])
}

/** `execute_ncC(dest, value, func)`, the SDK's single-call selector. */
export function encodeSmartAccountExecute(dest: Address, value: bigint, func: Hex = '0x'): Hex {
  return encodeFunctionData({ abi: smartAccountAbi, functionName: 'execute_ncC', args: [dest, value, func] })
}

/** ECDSA module signature: abi.encode(bytes personalSign(userOpHash), address module). */
export async function signSmartAccountOp(
  chain: Chain,
  op: UserOperationV06,
  owner: LocalAccount,
): Promise<Hex> {
  const hash = computeUserOpHash(op, chain.chainId, chain.addresses.entryPoint)
  const ownerSig = await owner.signMessage({ message: { raw: hash } })
  return encodeAbiParameters(
    [{ type: 'bytes' }, { type: 'address' }],
    [ownerSig, chain.addresses.ecdsaModule],
  )
}

export type UserOperationEventArgs = {
  userOpHash: Hex
  sender: Address
  paymaster: Address
  nonce: bigint
  success: boolean
  actualGasCost: bigint
  actualGasUsed: bigint
}

/** Sends `handleOps(ops, beneficiary)` from the executor and returns the receipt and decoded UserOperationEvents. */
export async function sendHandleOps(
  chain: Chain,
  ops: UserOperationV06[],
): Promise<{ receipt: TransactionReceipt; events: UserOperationEventArgs[]; revertReasons: Hex[] }> {
  const hash = await chain.executor.client.writeContract({
    address: chain.addresses.entryPoint,
    abi: entryPointAbi,
    functionName: 'handleOps',
    args: [ops, chain.executor.address],
    gas: 10_000_000n,
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  const events: UserOperationEventArgs[] = []
  const revertReasons: Hex[] = []
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== chain.addresses.entryPoint.toLowerCase()) continue
    try {
      const decoded = decodeEventLog({ abi: entryPointAbi, data: log.data, topics: log.topics })
      if (decoded.eventName === 'UserOperationEvent') events.push(decoded.args)
      if (decoded.eventName === 'UserOperationRevertReason') revertReasons.push(decoded.args.revertReason)
    } catch {}
  }
  return { receipt, events, revertReasons }
}

/** An op with generous gas limits; the caller fills sender, nonce, initCode, callData, signature. */
export async function buildOp(
  chain: Chain,
  fields: Partial<UserOperationV06> & { sender: Address },
): Promise<UserOperationV06> {
  return {
    nonce: 0n,
    initCode: '0x',
    callData: '0x',
    callGasLimit: 200_000n,
    verificationGasLimit: 1_000_000n,
    preVerificationGas: 60_000n,
    paymasterAndData: '0x',
    signature: '0x',
    ...(await getFees(chain)),
    ...fields,
  }
}

/** Counterfactual SA v2 address from the factory (`getAddressForCounterFactualAccount`). */
export function getSmartAccountAddress(chain: Chain, owner: Address, index = 0n): Promise<Address> {
  return chain.publicClient.readContract({
    address: chain.addresses.smartAccountFactory,
    abi: smartAccountFactoryAbi,
    functionName: 'getAddressForCounterFactualAccount',
    args: [
      chain.addresses.ecdsaModule,
      encodeFunctionData({ abi: ecdsaModuleAbi, functionName: 'initForSmartAccount', args: [owner] }),
      index,
    ],
  })
}
