import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `debug_bundler_sendBundleNow`: bundles what is pending now; `{transactionHash, userOpHashes}` or null if nothing was. */
export const debugBundlerSendBundleNow = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_sendBundleNow',
    summary: 'Bundle what is pending now; null if nothing was',
    admin: true,
    params: z.array(z.unknown()),
    result: z.object({ transactionHash: z.string(), userOpHashes: z.array(z.string()) }).nullable(),
    handler: () => getBundler().sendBundleNow(),
  })
