import type { Hex } from 'viem'

/** What one look at the node saw. */
export type NodeObservation =
  | { reachable: false; error: string }
  | {
      reachable: true
      chainId: number
      genesisHash: Hex
      head: bigint
      /** Names of the service's contracts without code; undefined when this look did not check them. */
      missing?: string[]
      /** How long the head has stayed where it is, ms. */
      headStillMs?: number
    }

/** The node as the service knew it when it last had it whole: its identity and the head it had reached. */
export type KnownNode = { chainId: number; genesisHash: Hex; head: bigint }

/**
 * - `ready`: the same chain id, with the service's contracts (a new genesis or a head gone back with every contract
 *   still there is a reload of the same state, or a revert: nothing to do);
 * - `unreachable`: no answer (refused, reset or timed-out connection);
 * - `wrong-chain`: it answers with another chain id: nothing is done to it;
 * - `reset`: a new chain with the same id (another genesis block, or its head gone back) without the service's
 *   contracts: everything the service deployed and funded must be done again;
 * - `contracts-missing`: the same chain, some contracts gone (a user's anvil_setCode): deployed again;
 * - `stalled`: a node that mines on a timer (`--block-time`) has mined nothing for three of its blocks (5 s at least):
 *   it answers, so calls go on, but operations wait.
 */
export type NodeVerdict =
  | { state: 'ready' }
  | { state: 'unreachable'; error: string }
  | { state: 'wrong-chain'; chainId: number }
  | { state: 'reset'; why: string; missing: string[] }
  | { state: 'contracts-missing'; missing: string[] }
  | { state: 'stalled'; head: bigint; stillMs: number }

/** What the service makes of one look at its node (pure: the watcher and its tests share it). */
export function judgeNode(known: KnownNode, seen: NodeObservation, blockTimeMs?: number): NodeVerdict {
  if (!seen.reachable) return { state: 'unreachable', error: seen.error }
  if (seen.chainId !== known.chainId) return { state: 'wrong-chain', chainId: seen.chainId }
  const missing = seen.missing ?? []
  if (missing.length === 0) {
    const still = seen.headStillMs ?? 0
    if (blockTimeMs !== undefined && still > Math.max(3 * blockTimeMs, 5_000))
      return { state: 'stalled', head: seen.head, stillMs: still }
    return { state: 'ready' }
  }
  if (isOtherChain(known, seen.genesisHash, seen.head)) {
    const why =
      seen.genesisHash.toLowerCase() !== known.genesisHash.toLowerCase()
        ? 'a new genesis block'
        : `its head went back from block ${known.head} to ${seen.head}`
    return { state: 'reset', why, missing }
  }
  return { state: 'contracts-missing', missing }
}

/** Another genesis block, or a head behind the one reached: the node may have lost what the service put there. */
export function isOtherChain(known: KnownNode, genesisHash: Hex, head: bigint): boolean {
  return genesisHash.toLowerCase() !== known.genesisHash.toLowerCase() || head < known.head
}

/** Whether a look checks the contracts' code (every few looks, and whenever the chain may be another). */
export function shouldCheckContracts(
  known: KnownNode,
  genesisHash: Hex,
  head: bigint,
  look: number,
  everyLooks: number,
): boolean {
  return isOtherChain(known, genesisHash, head) || look % everyLooks === 0
}
