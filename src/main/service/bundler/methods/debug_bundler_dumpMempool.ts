import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_dumpMempool([entryPoint])`: the pending operations, oldest first. */
export const debugBundlerDumpMempool = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpMempool',
    params: z.array(z.unknown()),
    handler: () => getBundler().dumpMempool(),
  })
