import { encodeAbiParameters, type Hex, hexToBytes, size } from 'viem'
import type { PartialUserOperation } from './types'

/** Gas overheads of the reference bundler's calcPreVerificationGas (eth-infinitism @account-abstraction/sdk). */
export const preVerificationGasOverheads = {
  fixed: 21_000,
  perUserOp: 18_300,
  perUserOpWord: 4,
  zeroByte: 4,
  nonZeroByte: 16,
  bundleSize: 1,
  sigSize: 65,
} as const

const userOperationTuple = [
  {
    type: 'tuple',
    components: [
      { name: 'sender', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'initCode', type: 'bytes' },
      { name: 'callData', type: 'bytes' },
      { name: 'callGasLimit', type: 'uint256' },
      { name: 'verificationGasLimit', type: 'uint256' },
      { name: 'preVerificationGas', type: 'uint256' },
      { name: 'maxFeePerGas', type: 'uint256' },
      { name: 'maxPriorityFeePerGas', type: 'uint256' },
      { name: 'paymasterAndData', type: 'bytes' },
      { name: 'signature', type: 'bytes' },
    ],
  },
] as const

/**
 * preVerificationGas of a v0.6 op: the calldata cost of the ABI-encoded op in a bundle of one, plus the
 * per-op and per-word overheads (the reference bundler's formula). Missing numeric fields count as non-zero
 * words (they will be filled); a missing or short signature counts as 65 non-zero bytes.
 */
export function calculatePreVerificationGas(op: PartialUserOperation & { paymasterAndData: Hex }): bigint {
  const o = preVerificationGasOverheads
  const filler = 0x0101_0101_0101n
  const signature: Hex =
    op.signature && size(op.signature) >= o.sigSize ? op.signature : (`0x${'01'.repeat(o.sigSize)}` as Hex)
  const packed = hexToBytes(
    encodeAbiParameters(userOperationTuple, [
      {
        sender: op.sender,
        nonce: op.nonce,
        initCode: op.initCode,
        callData: op.callData,
        callGasLimit: op.callGasLimit || filler,
        verificationGasLimit: op.verificationGasLimit || filler,
        preVerificationGas: BigInt(o.fixed),
        maxFeePerGas: op.maxFeePerGas || filler,
        maxPriorityFeePerGas: op.maxPriorityFeePerGas || filler,
        paymasterAndData: op.paymasterAndData,
        signature,
      },
    ]),
  )
  let callDataCost = 0
  for (const byte of packed) callDataCost += byte === 0 ? o.zeroByte : o.nonZeroByte
  const words = Math.ceil(packed.length / 32)
  return BigInt(Math.round(callDataCost + o.fixed / o.bundleSize + o.perUserOp + o.perUserOpWord * words))
}
