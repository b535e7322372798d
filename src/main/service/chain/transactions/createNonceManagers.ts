import { type Address, type Hex, hexToNumber, type PublicClient } from 'viem'
import type { Logger } from '../../log/logger'
import { requestRpc } from '../node/requestRpc'
import { createNonceManager, type NonceManager } from './createNonceManager'

export type NonceManagers = {
  /** The nonce manager of `address`: one per account, made on its first transaction, shared by every sender. */
  of: (address: Address) => NonceManager
  /** Every account reads its nonce from the node again (the chain restarted from its last saved state). */
  resyncAll: () => void
}

/** The nonce managers of the accounts the service sends from (the executor, the gas tanks' paymasterIds). */
export function createNonceManagers({
  publicClient,
  log,
}: {
  publicClient: PublicClient
  log?: Logger
}): NonceManagers {
  const managers = new Map<string, NonceManager>()
  return {
    of(address) {
      const key = address.toLowerCase()
      let manager = managers.get(key)
      if (!manager) {
        manager = createNonceManager({
          readPendingNonce: async () =>
            hexToNumber(await requestRpc<Hex>(publicClient, 'eth_getTransactionCount', [address, 'pending'])),
          log,
          account: address,
        })
        managers.set(key, manager)
      }
      return manager
    },
    resyncAll() {
      for (const manager of managers.values()) manager.resync()
    },
  }
}
