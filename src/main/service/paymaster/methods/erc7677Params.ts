import { z } from 'zod'
import type { Chain } from '../../chain'
import type { SponsorableOperation } from '../../entryPoint'
import { InvalidInputError } from '../../errors'
import { addressSchema, chainIdSchema, Erc7677ContextSchema } from '../schemas'
import { selectEntryPoint } from '../selectEntryPoint'
import { PaymasterFieldsShape, PaymasterUserOperationParam } from './pm_sponsorUserOperation'

/** ERC-7677 params: [userOp, entryPoint, chainId (hex), context]; the op is parsed by its EntryPoint's version. */
export const Erc7677ParamsSchema = z
  .tuple([
    PaymasterUserOperationParam,
    addressSchema.meta({ title: 'entryPoint' }),
    chainIdSchema.meta({ title: 'chainId', description: '0x-hex' }),
    Erc7677ContextSchema.optional().meta({
      title: 'context',
      description:
        'The paymaster context of pm_sponsorUserOperation; without it, SPONSORED with the defaults',
    }),
  ])
  .rest(z.unknown())

/** What ERC-7677 answers carry: v0.6 `paymasterAndData`, or v0.7/v0.8's paymaster fields. */
export const Erc7677PaymasterShape = {
  paymasterAndData: z.string().optional().meta({ description: 'v0.6' }),
  ...z.object(PaymasterFieldsShape).partial().shape,
  paymasterSignature: z.string().optional().meta({
    description:
      "v0.9, when the request's operation has a paymasterSignature field (0x before the paymaster answered): left out of the userOpHash, so the account may sign first; otherwise the signature ends paymasterData, as for v0.8",
  }),
  sponsor: z.object({ name: z.string() }).meta({ description: 'Shown by wallets' }),
}

/** The context when the client sends none: SPONSORED with the defaults. */
export const DEFAULT_ERC7677_CONTEXT = Erc7677ContextSchema.parse(undefined)

/** The op of an ERC-7677 request, for an EntryPoint this chain serves and this chain's id. */
export function readErc7677Operation(
  chain: Chain,
  raw: unknown,
  entryPoint: `0x${string}`,
  chainId: number,
): SponsorableOperation {
  if (chainId !== chain.chainId)
    throw new InvalidInputError(`Chain ID ${chainId} is not served here (chain ${chain.chainId})`)
  return selectEntryPoint(chain, raw, entryPoint).paymaster.bind(raw)
}
