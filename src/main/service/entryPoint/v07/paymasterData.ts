import {
  type Address,
  concat,
  encodeAbiParameters,
  type Hash,
  type Hex,
  type LocalAccount,
  numberToHex,
} from 'viem'
import { keccak256Hex } from '../../chain/keccak256'
import type { PackedUserOperation } from './packUserOperation'

/**
 * paymasterData layouts of Opstation's v0.7/v0.8 paymasters (`contracts/packed/`) and the hashes their `getHash`
 * computes on chain, here off-chain. Both hash `abi.encode(bytes operation, ...fields)` where `operation` is
 * `abi.encode(sender, nonce, keccak256(initCode), keccak256(callData), accountGasLimits, paymaster gas limits,
 * preVerificationGas, gasFees, chainId, paymaster)`.
 */

export type VerifyingPaymasterDataFields = { paymasterId: Address; validUntil: number; validAfter: number }
export type TokenPaymasterDataFields = {
  validUntil: number
  validAfter: number
  feeToken: Address
  exchangeRate: bigint
  priceMarkup: number
}

/** The words of PackedBasePaymaster._hashOperation (paymasterAndData must already hold the paymaster's limits). */
function encodeOperation(op: PackedUserOperation, chainId: number, paymaster: Address): Hex {
  return encodeAbiParameters(
    [
      { type: 'address' },
      { type: 'uint256' },
      { type: 'bytes32' },
      { type: 'bytes32' },
      { type: 'bytes32' },
      { type: 'uint256' },
      { type: 'uint256' },
      { type: 'bytes32' },
      { type: 'uint256' },
      { type: 'address' },
    ],
    [
      op.sender,
      op.nonce,
      keccak256Hex(op.initCode),
      keccak256Hex(op.callData),
      op.accountGasLimits,
      BigInt(`0x${op.paymasterAndData.slice(42, 106).padEnd(64, '0')}`),
      op.preVerificationGas,
      op.gasFees,
      BigInt(chainId),
      paymaster,
    ],
  )
}

/** OpstationVerifyingPaymaster.getHash(op, paymasterId, validUntil, validAfter). */
export function getVerifyingPaymasterHashV07(
  op: PackedUserOperation,
  fields: VerifyingPaymasterDataFields & { chainId: number; paymaster: Address },
): Hash {
  return keccak256Hex(
    encodeAbiParameters(
      [{ type: 'bytes' }, { type: 'address' }, { type: 'uint48' }, { type: 'uint48' }],
      [
        encodeOperation(op, fields.chainId, fields.paymaster),
        fields.paymasterId,
        fields.validUntil,
        fields.validAfter,
      ],
    ),
  )
}

/** OpstationTokenPaymaster.getHash(op, fields). */
export function getTokenPaymasterHashV07(
  op: PackedUserOperation,
  fields: TokenPaymasterDataFields & { chainId: number; paymaster: Address },
): Hash {
  return keccak256Hex(
    encodeAbiParameters(
      [
        { type: 'bytes' },
        { type: 'uint48' },
        { type: 'uint48' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'uint32' },
      ],
      [
        encodeOperation(op, fields.chainId, fields.paymaster),
        fields.validUntil,
        fields.validAfter,
        fields.feeToken,
        fields.exchangeRate,
        fields.priceMarkup,
      ],
    ),
  )
}

/** paymasterId (20) ‖ validUntil (6) ‖ validAfter (6) ‖ signature (65). */
export function encodeVerifyingPaymasterDataV07(
  fields: VerifyingPaymasterDataFields & { signature: Hex },
): Hex {
  return concat([
    fields.paymasterId,
    numberToHex(fields.validUntil, { size: 6 }),
    numberToHex(fields.validAfter, { size: 6 }),
    fields.signature,
  ])
}

/** validUntil (6) ‖ validAfter (6) ‖ feeToken (20) ‖ exchangeRate (32) ‖ priceMarkup (4) ‖ signature (65). */
export function encodeTokenPaymasterDataV07(fields: TokenPaymasterDataFields & { signature: Hex }): Hex {
  return concat([
    numberToHex(fields.validUntil, { size: 6 }),
    numberToHex(fields.validAfter, { size: 6 }),
    fields.feeToken,
    numberToHex(fields.exchangeRate, { size: 32 }),
    numberToHex(fields.priceMarkup, { size: 4 }),
    fields.signature,
  ])
}

/** EIP-191 personal sign of a paymaster hash, as the contracts recover it. */
export function signPaymasterHash(hash: Hash, signer: LocalAccount): Promise<Hex> {
  return signer.signMessage({ message: { raw: hash } })
}

/**
 * The validity window a paymasterData of this paymaster kind names (the layouts above: the verifying paymaster's
 * after its paymasterId, the token paymaster's first), or null when the data is too short to hold one.
 */
export function readPaymasterWindowV07(
  kind: 'verifying' | 'token',
  paymasterData: Hex,
): { validUntil: number; validAfter: number } | null {
  const start = kind === 'verifying' ? 20 : 0
  const hex = paymasterData.slice(2)
  if (hex.length < (start + 12) * 2) return null
  const read = (offset: number) => Number.parseInt(hex.slice(offset * 2, (offset + 6) * 2), 16)
  return { validUntil: read(start), validAfter: read(start + 6) }
}
