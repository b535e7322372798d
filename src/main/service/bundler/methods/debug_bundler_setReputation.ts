import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema, QuantitySchema } from '../userOperationSchema'
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
    admin: true,
    params: z.tuple([z.array(ReputationEntrySchema), AddressSchema.optional()], z.unknown()),
    handler: ([entries, entryPoint]) => {
      getBundler().setReputation(entries, entryPoint)
      return 'ok'
    },
  })
