import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_dumpReputation([entryPoint])`: `[{address, opsSeen, opsIncluded, status}]`. */
export const debugBundlerDumpReputation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpReputation',
    params: z.array(z.unknown()),
    handler: () => getBundler().dumpReputation(),
  })
