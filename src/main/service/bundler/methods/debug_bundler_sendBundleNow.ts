import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_sendBundleNow`: bundles what is pending now; `{transactionHash, userOpHashes}` or null if nothing was. */
export const debugBundlerSendBundleNow = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_sendBundleNow',
    admin: true,
    params: z.array(z.unknown()),
    handler: () => getBundler().sendBundleNow(),
  })
