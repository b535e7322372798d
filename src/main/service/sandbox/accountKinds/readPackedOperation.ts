import type { Hash } from 'viem'
import type { Chain } from '../../chain/types'
import { describeZodError } from '../../describeZodError'
import type { EntryPointModule } from '../../entryPoint'
import type { UserOperationV07 } from '../../entryPoint/v07/userOperation'
import { InvalidInputError } from '../../errors'

/** A v0.7/v0.8 wire operation parsed by its EntryPoint's schema (any signature), with its userOpHash. */
export function readPackedOperation(
  chain: Chain,
  entryPoint: EntryPointModule,
  input: unknown,
): { op: UserOperationV07; userOpHash: Hash } {
  const withSignature =
    input && typeof input === 'object' ? { signature: '0x', ...(input as Record<string, unknown>) } : input
  const parsed = entryPoint.userOperationSchema.safeParse(withSignature)
  if (!parsed.success) throw new InvalidInputError(describeZodError(parsed.error, 'userOperation'))
  const op = parsed.data as UserOperationV07
  return { op, userOpHash: entryPoint.computeUserOpHash({ ...op, signature: '0x' }, chain.chainId) }
}
