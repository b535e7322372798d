import { type Address, concat, encodeFunctionData, type Hex, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'
import type { Call } from './types'

const kernelFactoryAbi = parseAbi([
  'function createAccount(address implementation, bytes data, uint256 index) payable returns (address)',
])
const kernelAbi = parseAbi([
  'function initialize(address defaultValidator, bytes data) payable',
  'function execute(address to, uint256 value, bytes data, uint8 operation) payable',
  'struct Call { address to; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls) payable',
])

/** Kernel v2's signature mode: 0x00000000 is sudo mode (the default validator checks the rest). */
const withSudoMode = (signature: Hex): Hex => concat(['0x00000000', signature])

/**
 * ZeroDev's Kernel v2 factory: `createAccount(Kernel v2.4, initialize(ECDSA validator, owner address), index)`.
 * The factory only creates accounts of implementations its owner allowed (set up at start on dev nodes).
 */
const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('kernelFactoryV2'),
  factoryData: encodeFunctionData({
    abi: kernelFactoryAbi,
    functionName: 'createAccount',
    args: [
      getZooAddress('kernelV2_4'),
      encodeFunctionData({
        abi: kernelAbi,
        functionName: 'initialize',
        args: [getZooAddress('kernelEcdsaValidatorV2'), owner],
      }),
      BigInt(index),
    ],
  }),
})

/** Kernel v2's `execute(to, value, data, Operation.Call)` / `executeBatch(Call[])`; no call, empty callData. */
function encodeKernelV2Calls(calls: Call[]): Hex {
  if (calls.length === 0) return '0x'
  if (calls.length === 1) {
    const [c] = calls as [Call]
    return encodeFunctionData({ abi: kernelAbi, functionName: 'execute', args: [c.to, c.value, c.data, 0] })
  }
  return encodeFunctionData({ abi: kernelAbi, functionName: 'executeBatch', args: [calls] })
}

/**
 * Kernel v2.4 with the ECDSA validator (EntryPoint v0.6), as permissionless' toKernelSmartAccount
 * (`version: '0.2.4'`) builds it: deployed by the v2 KernelFactory (the address from the EntryPoint's
 * getSenderAddress), `execute` / `executeBatch`, the owner signing the userOpHash (EIP-191) in sudo mode.
 */
export const kernelV2_4 = defineEcdsaAccountV06({
  type: 'KERNEL_V2_4',
  deploymentOf,
  encodeCalls: encodeKernelV2Calls,
  wrapSignature: withSudoMode,
})
