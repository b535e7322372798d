import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_clearReputation`. */
export const debugBundlerClearReputation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_clearReputation',
    summary: 'Clear the reputation of every entity',
    admin: true,
    params: z.array(z.unknown()),
    result: z.literal('ok'),
    handler: () => {
      getBundler().clearReputation()
      return 'ok'
    },
  })
