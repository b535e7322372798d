import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `eth_supportedEntryPoints`: the one EntryPoint (v0.6) this bundler serves. */
export const ethSupportedEntryPoints = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_supportedEntryPoints',
    params: z.tuple([]),
    handler: () => [getBundler().entryPoint],
  })
