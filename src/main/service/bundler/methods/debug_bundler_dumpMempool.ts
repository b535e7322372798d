import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_dumpMempool([entryPoint])`: the pending operations of that EntryPoint (all without it), oldest first. */
export const debugBundlerDumpMempool = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpMempool',
    admin: true,
    params: z.tuple([AddressSchema.optional()], z.unknown()),
    handler: ([entryPoint]) => getBundler().dumpMempool(entryPoint),
  })
