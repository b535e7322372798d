import { type Address, type Hash, numberToHex } from 'viem'
import { ChainError } from '../../errors'
import { requestRpc } from '../node/requestRpc'
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
    const balance = (await chain.publicClient.getBalance({ address })) + wei
    await requestRpc(chain.publicClient, `${prefix}_setBalance`, [address, numberToHex(balance)])
    return { balance }
  }
  try {
    const hash = await chain.executor.client.sendTransaction({ to: address, value: wei })
    await chain.publicClient.waitForTransactionReceipt({ hash })
    return { balance: await chain.publicClient.getBalance({ address }), hash }
  } catch (err) {
    throw new ChainError(`Could not send ${wei} wei to ${address} from the executor`, { cause: err })
  }
}

/** Dev nodes: makes sure the executor holds at least `wei` (+ 1 ETH for gas) before it pays for something. */
export async function ensureExecutorBalance(chain: Chain, wei: bigint): Promise<void> {
  if (!chain.capabilities.devPrefix) return
  const needed = wei + 10n ** 18n
  const balance = await chain.publicClient.getBalance({ address: chain.executor.address })
  if (balance < needed) await fundEth(chain, chain.executor.address, needed - balance + 1000n * 10n ** 18n)
}
