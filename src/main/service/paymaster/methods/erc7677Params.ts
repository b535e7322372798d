import { z } from 'zod'
import type { Chain } from '../../chain'
import { InvalidInputError } from '../../errors'
import { addressSchema, chainIdSchema, Erc7677ContextSchema, PartialUserOperationSchema } from '../schemas'

/** ERC-7677 params: [userOp, entryPoint, chainId (hex), context]. */
export const Erc7677ParamsSchema = z
  .tuple([PartialUserOperationSchema, addressSchema, chainIdSchema, Erc7677ContextSchema.optional()])
  .rest(z.unknown())

/** The context when the client sends none: SPONSORED with the defaults. */
export const DEFAULT_ERC7677_CONTEXT = Erc7677ContextSchema.parse(undefined)

/** The op must target this chain and the EntryPoint v0.6 the paymasters serve. */
export function assertErc7677Target(chain: Chain, entryPoint: string, chainId: number): void {
  if (entryPoint.toLowerCase() !== chain.addresses.entryPoint.toLowerCase()) {
    throw new InvalidInputError(
      `EntryPoint ${entryPoint} is not supported: this paymaster serves EntryPoint v0.6 ${chain.addresses.entryPoint}`,
    )
  }
  if (chainId !== chain.chainId)
    throw new InvalidInputError(`Chain ID ${chainId} is not served here (chain ${chain.chainId})`)
}
