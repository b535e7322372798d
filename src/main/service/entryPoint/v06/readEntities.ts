import type { Address, Hex } from 'viem'
import type { UserOperationV06 } from './userOperation'

/** The operation's entities, lowercase: the sender, and the factory and paymaster when it names them. */
export function readEntities(op: UserOperationV06): {
  sender: Address
  factory: Address | null
  paymaster: Address | null
} {
  const leadingAddress = (field: Hex) =>
    field.length >= 42 ? (field.slice(0, 42).toLowerCase() as Address) : null
  return {
    sender: op.sender.toLowerCase() as Address,
    factory: leadingAddress(op.initCode),
    paymaster: leadingAddress(op.paymasterAndData),
  }
}
