import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
import { QuantitySchema } from '../../schemas/quantitySchema'
import type { GetBundler } from './bundlerAccess'

const ReputationEntrySchema = z.object({
  address: AddressSchema,
  opsSeen: QuantitySchema.transform(Number),
  opsIncluded: QuantitySchema.transform(Number),
})

/** `debug_bundler_setReputation([{address, opsSeen, opsIncluded}][, entryPoint])`. */
export const debugBundlerSetReputation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_setReputation',
    summary: 'Set the reputation of entities on an EntryPoint (v0.6 without it)',
    admin: true,
    params: z.tuple(
      [
        z.array(ReputationEntrySchema).meta({ title: 'entries' }),
        AddressSchema.optional().meta({ title: 'entryPoint' }),
      ],
      z.unknown(),
    ),
    result: z.literal('ok'),
    handler: ([entries, entryPoint]) => {
      getBundler().setReputation(entries, entryPoint)
      return 'ok'
    },
  })
