import type { Address, Hash } from 'viem'
import type { PackedUserOperation } from '../v07/packUserOperation'
import { computeUserOpHashV08 } from '../v08/computeUserOpHash'
import { paymasterAndDataForHash } from './paymasterSignature'

/**
 * EntryPoint v0.9 `getUserOpHash`: v0.8's EIP-712 hash (domain "ERC4337", version "1", the same type), paymasterAndData
 * hashed without the paymaster's signature and its length (the magic kept), so the account signs before the
 * paymaster does.
 */
export function computeUserOpHashV09(
  op: PackedUserOperation,
  chainId: number,
  entryPoint: Address,
  delegate?: Address,
): Hash {
  return computeUserOpHashV08(
    { ...op, paymasterAndData: paymasterAndDataForHash(op.paymasterAndData) },
    chainId,
    entryPoint,
    delegate,
  )
}
