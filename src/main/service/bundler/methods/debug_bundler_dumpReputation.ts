import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_dumpReputation([entryPoint])`: `[{address, opsSeen, opsIncluded, status}]` (v0.6 without it). */
export const debugBundlerDumpReputation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpReputation',
    summary: 'The reputation of the entities an EntryPoint has seen (v0.6 without it)',
    admin: true,
    params: z.tuple([AddressSchema.optional().meta({ title: 'entryPoint' })], z.unknown()),
    result: z.array(
      z.object({
        address: z.string(),
        opsSeen: z.number().int(),
        opsIncluded: z.number().int(),
        status: z.enum(['ok', 'throttled', 'banned']),
      }),
    ),
    handler: ([entryPoint]) => getBundler().dumpReputation(entryPoint),
  })
