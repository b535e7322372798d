import { z } from 'zod'
import { addressSchema, EntryPointVersionSchema } from './fields'

/** One EntryPoint version's tank of a dApp (the one paymasterId, that version's verifying paymaster). */
export const GasTankOfVersionSchema = z.object({
  entryPointVersion: EntryPointVersionSchema,
  verifyingPaymaster: addressSchema.meta({ description: "The EntryPoint version's verifying paymaster" }),
  balanceWei: z.string().nullable().meta({ description: 'Decimal; null without a paymasterId' }),
  balanceEth: z.string().nullable(),
})
export type GasTankOfVersion = z.output<typeof GasTankOfVersionSchema>

/**
 * What `GET /console/api/dapps/:apiKey/gas-tank` answers: the v0.6 tank's fields at the top level (as before v0.7
 * came), every tank in `tanks`.
 */
export const GasTankViewSchema = z.object({
  paymasterId: addressSchema
    .nullable()
    .meta({ description: 'The gas tank id; null before the first deposit' }),
  balanceWei: z.string().nullable().meta({ description: 'The v0.6 tank, decimal' }),
  balanceEth: z.string().nullable(),
  verifyingPaymaster: addressSchema,
  tanks: z.array(GasTankOfVersionSchema),
})
export type GasTankView = z.output<typeof GasTankViewSchema>

/** What a deposit or a withdrawal (`POST /console/api/dapps/:apiKey/gas-tank`) answers. */
export const GasTankChangeSchema = GasTankViewSchema.extend({
  transactionHash: z.string().meta({ description: 'The deposit or withdrawal' }),
})
export type GasTankChange = z.output<typeof GasTankChangeSchema>
