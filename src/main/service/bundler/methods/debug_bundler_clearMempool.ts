import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_clearMempool`: drops every pending operation of every EntryPoint; reputation stays. */
export const debugBundlerClearMempool = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_clearMempool',
    summary: 'Drop every pending operation of every EntryPoint (reputation stays)',
    admin: true,
    params: z.array(z.unknown()),
    result: z.literal('ok'),
    handler: () => {
      getBundler().clearMempool()
      return 'ok'
    },
  })
