import { type Address, type Hash, numberToHex } from 'viem'
import { ChainError } from '../../errors'
import { type ConcurrencyLimit, createConcurrencyLimit } from '../../util/createConcurrencyLimit'
import { requestRpc } from '../node/requestRpc'
import { submitTransaction } from '../transactions/submitTransaction'
import type { Chain } from '../types'

/**
 * Gives `address` `wei` more ETH: `anvil_setBalance`/`hardhat_setBalance` on dev nodes (no transaction), else a
 * transfer from the executor. Returns the new balance (and the transfer hash if one was sent).
 */
export async function fundEth(
  chain: Chain,
  address: Address,
  wei: bigint,
): Promise<{ balance: bigint; hash?: Hash }> {
  const prefix = chain.capabilities.devPrefix
  if (prefix) {
    // Read and set one after the other: two faucet calls at once must both count.
    return balanceUpdates(chain)(async () => {
      const balance = (await chain.publicClient.getBalance({ address })) + wei
      await requestRpc(chain.publicClient, `${prefix}_setBalance`, [address, numberToHex(balance)])
      return { balance }
    })
  }
  try {
    const hash = await submitTransaction(chain, { to: address, value: wei })
    await chain.publicClient.waitForTransactionReceipt({ hash })
    return { balance: await chain.publicClient.getBalance({ address }), hash }
  } catch (err) {
    throw new ChainError(`Could not send ${wei} wei to ${address} from the executor`, { cause: err })
  }
}

/** One balance update at a time per chain (dev nodes set balances by reading and writing them). */
const balanceUpdateLimits = new WeakMap<object, ConcurrencyLimit>()
function balanceUpdates(chain: Chain): ConcurrencyLimit {
  let limit = balanceUpdateLimits.get(chain.publicClient)
  if (!limit) {
    limit = createConcurrencyLimit(1)
    balanceUpdateLimits.set(chain.publicClient, limit)
  }
  return limit
}

/** Dev nodes: makes sure the executor holds at least `wei` (+ 1 ETH for gas) before it pays for something. */
export async function ensureExecutorBalance(chain: Chain, wei: bigint): Promise<void> {
  if (!chain.capabilities.devPrefix) return
  const needed = wei + 10n ** 18n
  const balance = await chain.publicClient.getBalance({ address: chain.executor.address })
  if (balance < needed) await fundEth(chain, chain.executor.address, needed - balance + 1000n * 10n ** 18n)
}
