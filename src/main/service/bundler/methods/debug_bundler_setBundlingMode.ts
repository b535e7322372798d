import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_setBundlingMode('auto' | 'interval' | 'manual')`. */
export const debugBundlerSetBundlingMode = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_setBundlingMode',
    summary:
      'Bundle on every operation (auto), on a timer (interval), or only on debug_bundler_sendBundleNow (manual)',
    admin: true,
    params: z.tuple([z.enum(['auto', 'interval', 'manual']).meta({ title: 'mode' })]),
    result: z.literal('ok'),
    handler: ([mode]) => {
      getBundler().setBundlingMode(mode)
      return 'ok'
    },
  })
