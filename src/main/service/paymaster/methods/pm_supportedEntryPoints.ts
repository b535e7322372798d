import { z } from 'zod'
import { listServedEntryPoints } from '../../entryPoint'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'

/** `pm_supportedEntryPoints`: the EntryPoints this paymaster signs for (those the chain holds), oldest first. */
export function pmSupportedEntryPoints(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_supportedEntryPoints',
    summary: 'The EntryPoints this paymaster signs for, oldest first',
    params: z.array(z.unknown()),
    result: z.array(z.string()),
    handler: () => {
      return listServedEntryPoints(requireChain(deps)).map((m) => m.address)
    },
  })
}
