import type { TransactionSerializableEIP1559 } from 'viem'

export type TransactionSignature = { yParity: number; r: bigint; s: bigint }

/**
 * The EIP-2718 type-2 encoding `0x02 || rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value,
 * data, accessList, (yParity, r, s)])` as bytes: what viem's serializeTransaction returns for an EIP-1559
 * transaction, built straight into a buffer (viem's goes through hex strings and takes ~0.25 ms for the
 * kilobytes of a handleOps bundle, twice per bundle). Access lists are not supported (bundles carry none).
 */
export function serializeEip1559Transaction(
  transaction: TransactionSerializableEIP1559,
  signature?: TransactionSignature,
): Buffer {
  if (transaction.accessList?.length) throw new Error('access lists are not supported')
  const fields = [
    rlpUint(transaction.chainId),
    rlpUint(transaction.nonce ?? 0),
    rlpUint(transaction.maxPriorityFeePerGas ?? 0n),
    rlpUint(transaction.maxFeePerGas ?? 0n),
    rlpUint(transaction.gas ?? 0n),
    rlpBytes(transaction.to ? hexBytes(transaction.to) : Buffer.alloc(0)),
    rlpUint(transaction.value ?? 0n),
    rlpBytes(hexBytes(transaction.data ?? '0x')),
    rlpList([]),
  ]
  if (signature) fields.push(rlpUint(signature.yParity), rlpUint(signature.r), rlpUint(signature.s))
  return Buffer.concat([Buffer.of(0x02), rlpList(fields)])
}

function hexBytes(hex: string): Buffer {
  return Buffer.from(hex.slice(2), 'hex')
}

/** A non-negative integer as its shortest big-endian bytes (zero: no bytes), RLP-encoded. */
function rlpUint(value: bigint | number): Buffer {
  const n = BigInt(value)
  if (n < 0n) throw new Error(`negative transaction field ${n}`)
  if (n === 0n) return rlpBytes(Buffer.alloc(0))
  const hex = n.toString(16)
  return rlpBytes(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'))
}

function rlpBytes(bytes: Buffer): Buffer {
  if (bytes.length === 1 && (bytes[0] as number) < 0x80) return bytes
  return Buffer.concat([rlpLength(bytes.length, 0x80), bytes])
}

function rlpList(items: Buffer[]): Buffer {
  const payload = Buffer.concat(items)
  return Buffer.concat([rlpLength(payload.length, 0xc0), payload])
}

/** The RLP length prefix: offset + length up to 55 bytes, else offset + 55 + length-of-length, then the length. */
function rlpLength(length: number, offset: number): Buffer {
  if (length <= 55) return Buffer.of(offset + length)
  const hex = length.toString(16)
  const lengthBytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')
  return Buffer.concat([Buffer.of(offset + 55 + lengthBytes.length), lengthBytes])
}
