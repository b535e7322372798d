import type { PublicClient } from 'viem'
import type { Chain } from '../types'
import {
  ENTRY_POINT_VERSIONS,
  getVersionContracts,
  holdsContracts,
  type NamedContract,
} from '../versionContracts'
import type { KnownNode } from './judgeNode'

/** The node as it is now: its chain id, genesis block and head (what the watch compares each look to). */
export async function readKnownNode(client: PublicClient, chainId: number): Promise<KnownNode> {
  const [genesis, head] = await Promise.all([
    client.getBlock({ blockNumber: 0n }),
    client.getBlockNumber({ cacheTime: 0 }),
  ])
  return { chainId, genesisHash: genesis.hash, head }
}

/** The contracts whose code the watch checks: each EntryPoint version's EntryPoint and paymasters the chain holds. */
export function listWatchedContracts(
  chain: Pick<Chain, 'addresses' | 'missing' | 'mismatched'>,
): NamedContract[] {
  return ENTRY_POINT_VERSIONS.flatMap((version) => {
    const c = getVersionContracts(chain, version)
    return [c.entryPoint, c.verifying, c.token].filter((contract) => holdsContracts(chain, contract))
  })
}
