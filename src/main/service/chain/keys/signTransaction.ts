import {
  type LocalAccount,
  parseSignature,
  serializeTransaction,
  type TransactionSerializableEIP1559,
  type TransactionSerializedEIP1559,
} from 'viem'
import { keccak256Hex } from '../keccak256'

/**
 * Signs an EIP-1559 transaction with a local account: what `account.signTransaction` does, with the signing hash
 * taken by the faster keccak (a handleOps transaction carries kilobytes of calldata, hashed for every bundle).
 */
export async function signTransaction(
  account: LocalAccount,
  transaction: TransactionSerializableEIP1559,
): Promise<TransactionSerializedEIP1559> {
  if (!account.sign) return account.signTransaction(transaction) as Promise<TransactionSerializedEIP1559>
  const hash = keccak256Hex(serializeTransaction(transaction))
  const signature = parseSignature(await account.sign({ hash }))
  return serializeTransaction(transaction, signature)
}
