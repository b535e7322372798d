import { type Address, encodeAbiParameters, type Hash } from 'viem'
import { keccak256Hex } from '../../chain/keccak256'
import type { UserOperationV06 } from './userOperation'

/** The fields a paymaster signs over (everything except paymasterAndData and signature). */
export type SignableUserOperation = Omit<UserOperationV06, 'paymasterAndData' | 'signature'>

type AbiWord = { type: string }

/** The part both Biconomy paymasters hash first: the op without paymasterAndData and signature, chain, paymaster. */
const OPERATION_WORDS: AbiWord[] = [
  { type: 'address' },
  { type: 'uint256' },
  { type: 'bytes32' },
  { type: 'bytes32' },
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'uint256' },
  { type: 'address' },
]

/**
 * `keccak256(abi.encode(sender, nonce, keccak256(initCode), keccak256(callData), callGasLimit,
 * verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas, chainId, paymaster, ...extra))`,
 * the `getHash` shape of the verifying and the token paymaster; each adds its own trailing words.
 */
export function hashForPaymaster(
  op: SignableUserOperation,
  chainId: number,
  paymaster: Address,
  extra: { types: AbiWord[]; values: unknown[] },
): Hash {
  return keccak256Hex(
    encodeAbiParameters(
      [...OPERATION_WORDS, ...extra.types],
      [
        op.sender,
        op.nonce,
        keccak256Hex(op.initCode),
        keccak256Hex(op.callData),
        op.callGasLimit,
        op.verificationGasLimit,
        op.preVerificationGas,
        op.maxFeePerGas,
        op.maxPriorityFeePerGas,
        BigInt(chainId),
        paymaster,
        ...extra.values,
      ],
    ),
  )
}
