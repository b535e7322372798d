import { concat, type Hex } from 'viem'
import { entryPointErrorRejected, invalidFields } from '../errors'
import { readRaisedErrorV09 } from './customErrors'

/** `PAYMASTER_SIG_MAGIC` of EntryPoint v0.9 (`keccak256("PaymasterSignature")[:8]`). */
export const PAYMASTER_SIGNATURE_MAGIC = '22e325a297439656'
/** paymaster (20) ‖ verification gas (16) ‖ postOp gas (16): where paymasterData starts. */
const PAYMASTER_DATA_OFFSET = 52
/** The suffix after the signature: its length (2 bytes) ‖ the magic (8 bytes). */
const SUFFIX_BYTES = 10
/** The longest signature the 2-byte length can name. */
export const MAX_PAYMASTER_SIGNATURE_BYTES = 0xffff

/** paymasterAndData with v0.9's paymaster signature appended (signature ‖ uint16 length ‖ magic); none: unchanged. */
export function appendPaymasterSignature(paymasterAndData: Hex, signature: Hex | null | undefined): Hex {
  if (!signature || signature === '0x') return paymasterAndData
  const bytes = (signature.length - 2) / 2
  if (bytes > MAX_PAYMASTER_SIGNATURE_BYTES)
    throw invalidFields(`paymasterSignature is ${bytes} bytes, longer than its 2-byte length can name`)
  return `${paymasterAndData}${signature.slice(2)}${bytes.toString(16).padStart(4, '0')}${PAYMASTER_SIGNATURE_MAGIC}`
}

/**
 * Reads paymasterAndData as EntryPoint v0.9 does (`UserOperationLib.getPaymasterSignatureLength`): when it ends with
 * the magic and is long enough to hold the suffix after the static fields, the 2 bytes before the magic are the
 * signature's length. Returns the data without the signature and its suffix, and the signature (null: none). A
 * length reaching into the static fields is the EntryPoint's `InvalidPaymasterSignatureLength` (AA35): refused here
 * with it (-32602, its revert data in `data`), as every surface refuses it.
 */
export function splitPaymasterSignature(paymasterAndData: Hex): { data: Hex; signature: Hex | null } {
  const hex = paymasterAndData.slice(2).toLowerCase()
  const bytes = hex.length / 2
  if (bytes < PAYMASTER_DATA_OFFSET + SUFFIX_BYTES || !hex.endsWith(PAYMASTER_SIGNATURE_MAGIC))
    return { data: paymasterAndData, signature: null }
  const length = Number.parseInt(hex.slice(-SUFFIX_BYTES * 2, -16), 16)
  if (length > bytes - PAYMASTER_DATA_OFFSET - SUFFIX_BYTES)
    throw entryPointErrorRejected(
      readRaisedErrorV09('InvalidPaymasterSignatureLength', [BigInt(bytes), BigInt(length)]),
      `paymasterAndData names a ${length}-byte paymaster signature, longer than the ${bytes - PAYMASTER_DATA_OFFSET - SUFFIX_BYTES} bytes after the paymaster's gas limits`,
    )
  if (length === 0) return { data: paymasterAndData, signature: null }
  const end = hex.length - SUFFIX_BYTES * 2
  return { data: `0x${hex.slice(0, end - length * 2)}`, signature: `0x${hex.slice(end - length * 2, end)}` }
}

/**
 * The paymasterAndData bytes v0.9's userOpHash covers (`paymasterDataKeccak`): with a paymaster signature, everything
 * before it followed by the magic (the signature and its length left out); otherwise all of it.
 */
export function paymasterAndDataForHash(paymasterAndData: Hex): Hex {
  const { data, signature } = splitPaymasterSignature(paymasterAndData)
  return signature ? `${data}${PAYMASTER_SIGNATURE_MAGIC}` : paymasterAndData
}

/** The paymaster's part of a paymaster answer: its paymasterData, and the signature where it goes on its own. */
export type PlacedPaymasterSignature = { paymasterData: Hex; paymasterSignature?: Hex }

/**
 * Where a v0.9 paymaster answer puts its signature. In `paymasterSignature` when the request's operation has that
 * field (`0x` before the paymaster answered: the client keeps the field and hashes as the EntryPoint does, leaving
 * the signature out), so the account may sign before the paymaster answers. Otherwise at the end of paymasterData as
 * for v0.8, covered by the userOpHash: clients that keep only the ERC-7677 fields they know (viem's paymaster
 * actions, Biconomy's SDK) pass it on and hash paymasterData whole, signing after the paymaster. Opstation's v0.9
 * paymasters (`contracts/packed/v09/`) read either.
 */
export function placePaymasterSignature(
  data: Hex,
  signature: Hex,
  { asField }: { asField: boolean },
): PlacedPaymasterSignature {
  return asField
    ? { paymasterData: data, paymasterSignature: signature }
    : { paymasterData: concat([data, signature]) }
}
