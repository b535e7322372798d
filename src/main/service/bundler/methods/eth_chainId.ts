import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'

/** `eth_chainId`: the chain this endpoint serves, as 0x-hex. */
export const ethChainId = defineMethod({
  name: 'eth_chainId',
  params: z.tuple([]),
  handler: (_params, ctx) => `0x${ctx.chainId.toString(16)}`,
})
