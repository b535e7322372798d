import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'
import { FeeTiersSchema, formatFeeTiers } from './getUserOperationGasPrice'

/**
 * `biconomy_getGasFeeValues`: `{maxPriorityFeePerGas, maxFeePerGas}` as integer decimal strings (what the Biconomy
 * SDK v4 reads), and beside them `{slow, standard, fast}` as 0x-hex (what `@biconomy/abstractjs` reads from the same
 * method; the tiers of pimlico_getUserOperationGasPrice).
 */
export const biconomyGetGasFeeValues = (getBundler: GetBundler) =>
  defineMethod({
    name: 'biconomy_getGasFeeValues',
    summary:
      'The gas fees the bundler suggests, as the Biconomy SDK v4 (decimal) and abstractjs (tiers) read them',
    params: z.array(z.unknown()),
    result: FeeTiersSchema.extend({
      maxPriorityFeePerGas: z.string().meta({ description: 'Decimal' }),
      maxFeePerGas: z.string().meta({ description: 'Decimal' }),
    }),
    handler: async () => {
      const fees = await getBundler().gasFeeValues()
      return {
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        ...formatFeeTiers(fees),
      }
    },
  })
