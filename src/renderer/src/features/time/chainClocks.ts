import type { ChainInfo } from '../../../../shared/serviceInfo'

/** The chain clock counts as offset from wall time past this (a block's timestamp lags the wall clock a little). */
const OFFSET_SHOWN_SECONDS = 60

/** Whether chain time is far enough from wall time to be shown beside it. */
export function isChainTimeOffset(offsetSeconds: number): boolean {
  return Math.abs(offsetSeconds) >= OFFSET_SHOWN_SECONDS
}

/** An event of `chainId` (none named: the service's only chain) is the chain `wanted`'s (none known: the first). */
export function isOfChain(chainId: number | undefined, wanted: number | undefined): boolean {
  return chainId === undefined || wanted === undefined || chainId === wanted
}

/** A clock the navigation shows: a chain's time as its offset from wall time (chainId null: the only chain). */
export type ChainClockLine = { chainId: number | null; offsetSeconds: number }

/**
 * The chain clocks the navigation shows: each chain whose time is away from wall time. With one chain, its clock
 * without a chain id; with several, a line per chain away from wall time, named by its id. The first chain's offset
 * is the console's (`firstOffset`: the time panel's read, else the status); the others' come from the status.
 */
export function listChainClocks(
  chains: readonly Pick<ChainInfo, 'chainId' | 'chainTimeOffsetSeconds'>[],
  firstOffset: number,
): ChainClockLine[] {
  if (chains.length <= 1)
    return isChainTimeOffset(firstOffset) ? [{ chainId: null, offsetSeconds: firstOffset }] : []
  return chains
    .map((chain, i) => ({
      chainId: chain.chainId,
      offsetSeconds: i === 0 ? firstOffset : chain.chainTimeOffsetSeconds,
    }))
    .filter((clock) => isChainTimeOffset(clock.offsetSeconds))
}
