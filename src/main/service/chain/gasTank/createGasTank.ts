import type { Address, Hash } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import type { Chain } from '../types'
import { depositToGasTank } from './depositToGasTank'

export type CreateGasTankParameters = {
  /** Initial deposit. Default: the chain's `gasTankDefaultWei` on dev chains (10 ETH), 0 elsewhere. */
  fundWei?: bigint
}

/**
 * Creates a gas tank for a dApp: a new `paymasterId` (an address whose key is kept in keys.json, so the service can
 * `withdrawTo` as it) with an initial deposit on the verifying paymaster.
 */
export async function createGasTank(
  chain: Chain,
  parameters: CreateGasTankParameters = {},
): Promise<{ paymasterId: Address; balance: bigint; hash?: Hash }> {
  const account = await chain.addPaymasterIdKey(generatePrivateKey())
  const fundWei = parameters.fundWei ?? (chain.capabilities.isDev ? chain.gasTankDefaultWei : 0n)
  if (fundWei === 0n) return { paymasterId: account.address, balance: 0n }
  const { hash, balance } = await depositToGasTank(chain, account.address, fundWei)
  return { paymasterId: account.address, balance, hash }
}
