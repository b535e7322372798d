import { numberToHex } from 'viem'
import { z } from 'zod'
import type { GasFees } from '../../entryPoint/types'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

const FeeTierSchema = z.object({
  maxFeePerGas: z.string().meta({ description: '0x-hex' }),
  maxPriorityFeePerGas: z.string().meta({ description: '0x-hex' }),
})

/** `{slow, standard, fast}`: the fees the bundler suggests, and 10 % and 25 % more. */
export const FeeTiersSchema = z.object({ slow: FeeTierSchema, standard: FeeTierSchema, fast: FeeTierSchema })

/** The three tiers' multipliers over the fees the bundler suggests (percent): every tier is accepted. */
const TIERS = { slow: 100n, standard: 110n, fast: 125n } as const

function tier(fees: GasFees, percent: bigint) {
  return {
    maxFeePerGas: numberToHex((fees.maxFeePerGas * percent) / 100n),
    maxPriorityFeePerGas: numberToHex((fees.maxPriorityFeePerGas * percent) / 100n),
  }
}

/** `{slow, standard, fast}`, each `{maxFeePerGas, maxPriorityFeePerGas}` as 0x-hex: `slow` is `fees` exactly. */
export function formatFeeTiers(fees: GasFees) {
  return { slow: tier(fees, TIERS.slow), standard: tier(fees, TIERS.standard), fast: tier(fees, TIERS.fast) }
}

/**
 * `pimlico_getUserOperationGasPrice` / `zd_getUserOperationGasPrice` (what permissionless' and ZeroDev's clients ask
 * for by default): `{slow, standard, fast}`, each `{maxFeePerGas, maxPriorityFeePerGas}` as 0x-hex, from the fees
 * the bundler suggests (`slow` is them exactly; the others bid 10 % and 25 % more).
 */
export const getUserOperationGasPrice =
  (name: 'pimlico_getUserOperationGasPrice' | 'zd_getUserOperationGasPrice') => (getBundler: GetBundler) =>
    defineMethod({
      name,
      summary: 'Gas fees in three tiers, slow, standard and fast (0x-hex)',
      params: z.array(z.unknown()),
      result: FeeTiersSchema,
      handler: async () => {
        return formatFeeTiers(await getBundler().gasFeeValues())
      },
    })

export const pimlicoGetUserOperationGasPrice = getUserOperationGasPrice('pimlico_getUserOperationGasPrice')
export const zdGetUserOperationGasPrice = getUserOperationGasPrice('zd_getUserOperationGasPrice')

/**
 * `thirdweb_getUserOperationGasPrice` (what thirdweb's smart wallet asks a bundler URL it takes for its own:
 * `*.thirdweb.com`, and `localhost` when NODE_ENV is development or test): `{maxFeePerGas, maxPriorityFeePerGas}` as
 * 0x-hex, the fees the bundler suggests (the `slow` tier).
 */
export const thirdwebGetUserOperationGasPrice = (getBundler: GetBundler) =>
  defineMethod({
    name: 'thirdweb_getUserOperationGasPrice',
    summary: 'The gas fees the bundler suggests (0x-hex), as thirdweb asks',
    params: z.array(z.unknown()),
    result: FeeTierSchema,
    handler: async () => tier(await getBundler().gasFeeValues(), TIERS.slow),
  })
