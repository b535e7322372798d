import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { quantitySchema } from '../../schemas/quantitySchema'
import type { GetBundler } from './bundlerAccess'

const ms = (name: string) =>
  z
    .number({ error: `${name} must be a number of milliseconds` })
    .int()
    .min(0)
    .max(3_600_000)
    .optional()

/**
 * The bundler settings a test may change while it runs (they apply to the next operation or bundle). Safe mode is a
 * service setting (`--unsafe`, the console's Settings), not changed here.
 */
const ConfigurationPatch = z
  .object({
    bundlingMode: z.enum(['auto', 'interval', 'manual']).optional(),
    maxPendingPerUnstakedSender: z.number().int().min(1).max(1024).optional(),
    minStake: quantitySchema({ field: 'minStake' })
      .optional()
      .meta({ description: 'Wei a stake needs to count as staked (0x-hex, decimal string or JSON integer)' }),
    minUnstakeDelay: z
      .number({ error: 'minUnstakeDelay must be a number of seconds' })
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional()
      .meta({ description: 'Seconds of unstake delay a stake needs to count as staked' }),
    nonceGapWaitMs: ms('nonceGapWaitMs'),
    receiptWaitMs: ms('receiptWaitMs'),
  })
  .strict()

const Configuration = z.object({
  bundlingMode: z.enum(['auto', 'interval', 'manual']),
  maxPendingPerUnstakedSender: z.number().int(),
  minStake: z.string().meta({ description: 'Wei, decimal' }),
  minUnstakeDelay: z.number().int().meta({ description: 'Seconds' }),
  nonceGapWaitMs: z.number().int(),
  receiptWaitMs: z.number().int(),
})

/** `debug_bundler_setConfiguration({...})`: changes the given settings and answers the whole configuration. */
export const debugBundlerSetConfiguration = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_setConfiguration',
    summary: 'Change bundler settings for the rest of a test run; answers every setting',
    admin: true,
    params: z.tuple([
      ConfigurationPatch.meta({ title: 'configuration', description: 'The settings to change' }),
    ]),
    result: Configuration,
    handler: ([patch]) => {
      const configuration = getBundler().configure(patch)
      return { ...configuration, minStake: configuration.minStake.toString() }
    },
  })
