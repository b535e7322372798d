import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_dumpReputation([entryPoint])`: `[{address, opsSeen, opsIncluded, status}]` (v0.6 without it). */
export const debugBundlerDumpReputation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpReputation',
    admin: true,
    params: z.tuple([AddressSchema.optional()], z.unknown()),
    handler: ([entryPoint]) => getBundler().dumpReputation(entryPoint),
  })
