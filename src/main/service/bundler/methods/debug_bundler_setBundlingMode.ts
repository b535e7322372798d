import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_setBundlingMode('auto' | 'interval' | 'manual')`. */
export const debugBundlerSetBundlingMode = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_setBundlingMode',
    admin: true,
    params: z.tuple([z.enum(['auto', 'interval', 'manual'])]),
    handler: ([mode]) => {
      getBundler().setBundlingMode(mode)
      return 'ok'
    },
  })
