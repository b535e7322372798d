import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import type { GetBundler } from './bundlerAccess'

/** `eth_supportedEntryPoints`: every EntryPoint served (v0.6, v0.7, v0.8 where the chain has them), oldest first. */
export const ethSupportedEntryPoints = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_supportedEntryPoints',
    summary: 'The EntryPoints served (v0.6, v0.7, v0.8 where the chain has them), oldest first',
    params: z.tuple([]),
    result: z.array(z.string()),
    handler: () => getBundler().entryPoints.list.map((entryPoint) => entryPoint.address),
  })
