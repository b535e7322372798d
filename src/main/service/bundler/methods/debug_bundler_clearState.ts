import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_clearState`: drops every pending operation and the reputation table. */
export const debugBundlerClearState = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_clearState',
    summary: 'Drop every pending operation and the reputation table',
    admin: true,
    params: z.array(z.unknown()),
    result: z.literal('ok'),
    handler: () => {
      getBundler().clearState()
      return 'ok'
    },
  })
