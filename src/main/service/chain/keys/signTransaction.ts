import type { LocalAccount, TransactionSerializableEIP1559, TransactionSerializedEIP1559 } from 'viem'
import { keccak256Bytes } from '../keccak256'
import { serializeEip1559Transaction } from './serializeEip1559Transaction'

/**
 * Signs an EIP-1559 transaction with a local account: what `account.signTransaction` does (same bytes), with
 * the transaction serialized straight into a buffer and its signing hash taken by the faster keccak (a handleOps
 * transaction carries kilobytes of calldata, serialized and hashed for every bundle).
 */
export async function signTransaction(
  account: LocalAccount,
  transaction: TransactionSerializableEIP1559,
): Promise<TransactionSerializedEIP1559> {
  if (!account.sign || transaction.accessList?.length)
    return account.signTransaction(transaction) as Promise<TransactionSerializedEIP1559>
  const hash = keccak256Bytes(serializeEip1559Transaction(transaction))
  const signature = await account.sign({ hash })
  // r (32 bytes) || s (32 bytes) || v (27 or 28; 0 or 1 from some signers)
  const v = Number.parseInt(signature.slice(130, 132), 16)
  const signed = serializeEip1559Transaction(transaction, {
    r: BigInt(`0x${signature.slice(2, 66)}`),
    s: BigInt(`0x${signature.slice(66, 130)}`),
    yParity: v >= 27 ? v - 27 : v,
  })
  return `0x${signed.toString('hex')}` as TransactionSerializedEIP1559
}
