import type { Hash, Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../chain/types'
import type { EntryPointModule, UserOperationV07 } from '../../entryPoint'
import { InvalidInputError } from '../../errors'
import { describeZodError } from '../../schemas/describeZodError'

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

/**
 * Signs a v0.7/v0.8 operation as the owner: the EIP-191 message of its userOpHash (what SimpleAccount v0.7, Kernel's
 * ECDSA validator, Nexus's K1 validator and LightAccount recover), shaped by `wrap` when the account prefixes it.
 */
export async function signPackedOperationMessage(
  chain: Chain,
  entryPoint: EntryPointModule,
  account: { ownerPrivateKey: Hex },
  input: unknown,
  wrap: (signature: Hex) => Hex = (signature) => signature,
): Promise<{ userOperation: Record<string, unknown>; userOpHash: Hash; signature: Hex }> {
  const { op, userOpHash } = readPackedOperation(chain, entryPoint, input)
  const signature = wrap(
    await privateKeyToAccount(account.ownerPrivateKey).signMessage({ message: { raw: userOpHash } }),
  )
  return { userOperation: entryPoint.toWire({ ...op, signature }), userOpHash, signature }
}
