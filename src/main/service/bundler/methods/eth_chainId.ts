import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'

/** `eth_chainId`: the chain this endpoint serves, as 0x-hex. */
export const ethChainId = defineMethod({
  name: 'eth_chainId',
  summary: 'The chain this endpoint serves',
  params: z.tuple([]),
  result: z.string().meta({ description: 'The chain id as 0x-hex' }),
  handler: (_params, ctx) => `0x${ctx.chainId.toString(16)}`,
})
