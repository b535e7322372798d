import { z } from 'zod'
import { WireUserOperationSchema, WireUserOperationV07Schema } from '../../../../shared/api/userOperations'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_dumpMempool([entryPoint])`: the pending operations of that EntryPoint (all without it), oldest first. */
export const debugBundlerDumpMempool = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpMempool',
    summary: 'The pending operations of an EntryPoint (of every one without it), oldest first',
    admin: true,
    params: z.tuple([AddressSchema.optional().meta({ title: 'entryPoint' })], z.unknown()),
    result: z.array(z.union([WireUserOperationSchema, WireUserOperationV07Schema])),
    handler: ([entryPoint]) => getBundler().dumpMempool(entryPoint),
  })
