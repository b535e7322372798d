import type { Address, Hex } from 'viem'
import type { Chain } from '../../chain/types'

/**
 * A 65-byte ECDSA signature of the right shape that recovers to nobody useful: validation returns
 * SIG_VALIDATION_FAILED instead of reverting (the dummy signature the SDKs estimate with).
 */
export const DUMMY_ECDSA_SIGNATURE: Hex = `0x${'f'.repeat(31)}0${'0'.repeat(32)}7${'a'.repeat(63)}1c`

export async function hasCode(chain: Chain, address: Address): Promise<boolean> {
  const code = await chain.publicClient.getCode({ address })
  return code !== undefined && code !== '0x'
}

export const toQuantity = (value: bigint | number): Hex => `0x${value.toString(16)}`

/**
 * An operation to estimate and sponsor: gas limits 0 (the estimate fills them), the node's fees, and the version's
 * own fields (`initCode`/`paymasterAndData` or `factory`/`factoryData`/`eip7702Auth`, and a dummy signature).
 */
export function draftOperation(
  account: { address: Address },
  parts: { callData: Hex; nonce: bigint; fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } },
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    sender: account.address,
    nonce: toQuantity(parts.nonce),
    callData: parts.callData,
    callGasLimit: '0x0',
    verificationGasLimit: '0x0',
    preVerificationGas: '0x0',
    maxFeePerGas: toQuantity(parts.fees.maxFeePerGas),
    maxPriorityFeePerGas: toQuantity(parts.fees.maxPriorityFeePerGas),
    ...fields,
  }
}
