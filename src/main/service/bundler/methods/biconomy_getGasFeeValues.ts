import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `biconomy_getGasFeeValues`: `{maxPriorityFeePerGas, maxFeePerGas}` as integer decimal strings. */
export const biconomyGetGasFeeValues = (getBundler: GetBundler) =>
  defineMethod({
    name: 'biconomy_getGasFeeValues',
    params: z.array(z.unknown()),
    handler: async () => {
      const fees = await getBundler().gasFeeValues()
      return {
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
      }
    },
  })
