import { z } from 'zod'
import { listServedEntryPoints } from '../../entryPoint'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'

/** `pm_supportedEntryPoints`: the EntryPoints this paymaster signs for (those the chain holds), oldest first. */
export function pmSupportedEntryPoints(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_supportedEntryPoints',
    params: z.array(z.unknown()),
    handler: () => {
      return listServedEntryPoints(requireChain(deps)).map((m) => m.address)
    },
  })
}
