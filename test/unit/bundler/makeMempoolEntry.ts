import type { Address, Hex } from 'viem'
import type { MempoolEntry } from '../../../src/main/service/bundler/mempool/mempool'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { entryPointV06 } from '../../../src/main/service/entryPoint'

let counter = 0

/** A validated, pending v0.6 mempool entry of `sender` and `nonce` (unstaked, no factory or paymaster unless given). */
export function makeMempoolEntry(
  sender: Address,
  nonce: bigint,
  extra: Partial<MempoolEntry> = {},
): MempoolEntry {
  counter++
  const userOperation: UserOperationV06 = {
    sender,
    nonce,
    initCode: '0x',
    callData: '0x',
    callGasLimit: 100_000n,
    verificationGasLimit: 100_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 10n,
    maxPriorityFeePerGas: 1n,
    paymasterAndData: '0x',
    signature: '0x',
  }
  return {
    userOpHash: `0x${counter.toString(16).padStart(64, '0')}` as Hex,
    userOperation,
    entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    bundleGas: entryPointV06.bundleGasOf(userOperation),
    state: 'pending',
    validated: true,
    rulesCheckedBy: 'none',
    prefund: 1000n,
    factory: null,
    paymaster: null,
    staked: { sender: false, factory: false, paymaster: false },
    storageAddresses: [],
    dappId: null,
    addedAt: counter,
    attempts: 0,
    ...extra,
  }
}
