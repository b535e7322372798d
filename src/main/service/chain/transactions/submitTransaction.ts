import type { Address, Hash, Hex, LocalAccount } from 'viem'
import { ChainError } from '../../errors'
import type { Chain } from '../types'

export type SubmitTransactionRequest = {
  /** The sending account (a key the service holds); default: the executor. */
  from?: LocalAccount
  to: Address
  data?: Hex
  value?: bigint
  gas?: bigint
}

/** Sends one transaction from the executor; resolves with its hash once the node took it. */
export type SubmitTransaction = (request: Omit<SubmitTransactionRequest, 'from'>) => Promise<Hash>

/**
 * The one way the service sends a transaction it signs itself: with the sending account's next nonce from its
 * nonce manager (concurrent sends of one account get consecutive nonces; a send refused for its nonce is resent
 * with the node's). Gas and fees are estimated by viem. Resolves with the hash once the node took the transaction;
 * waiting for the receipt is the caller's.
 */
export function submitTransaction(
  chain: Pick<Chain, 'executor' | 'nonceManagers'>,
  { from, ...request }: SubmitTransactionRequest,
): Promise<Hash> {
  const account = from ?? chain.executor.account
  return chain.nonceManagers
    .of(account.address)
    .withNextNonce((nonce) => chain.executor.client.sendTransaction({ ...request, account, nonce }))
    .catch((err: unknown) => {
      if (/insufficient funds/i.test((err as Error).message ?? ''))
        throw new ChainError(`${account.address} holds too little ETH for this transaction (value and gas)`, {
          cause: err,
        })
      throw err
    })
}
