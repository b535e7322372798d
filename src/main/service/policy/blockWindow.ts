import {
  BLOCK_WINDOW_VERSIONS_NOTE,
  type BlockWindowPolicy,
  MAX_WINDOW_BLOCK,
  MIN_VALID_FOR_BLOCKS,
} from '../../../shared/api/dapps'
import type { Chain } from '../chain'
import type { BlockRange, EntryPointVersion } from '../entryPoint'
import type { StepOutcome } from './types'

/**
 * A dApp's block window against the chain's head (`currentBlock`): sponsorship runs once the chain is past
 * `validAfterBlock` and while `validUntilBlock` is at least MIN_VALID_FOR_BLOCKS blocks ahead (the bundler admits an
 * operation only so long before its window ends). A bundle is simulated at the head and goes in a later block, so
 * both bounds are read at the head.
 */
export function checkBlockWindow(policy: BlockWindowPolicy, currentBlock: number): StepOutcome {
  const { validAfterBlock, validUntilBlock, validForBlocks } = policy
  if (validAfterBlock !== null && currentBlock <= validAfterBlock)
    return {
      outcome: 'fail',
      detail: `Sponsorship starts after block ${validAfterBlock} (the chain is at block ${currentBlock})`,
    }
  if (validUntilBlock !== null && currentBlock >= validUntilBlock)
    return {
      outcome: 'fail',
      detail: `Sponsorship ended at block ${validUntilBlock} (the chain is at block ${currentBlock})`,
    }
  if (validUntilBlock !== null && validUntilBlock - currentBlock < MIN_VALID_FOR_BLOCKS)
    return {
      outcome: 'fail',
      detail: `Sponsorship ends at block ${validUntilBlock}: the chain is at block ${currentBlock}, too close to it for an operation to be bundled in time`,
    }
  const bounds = [
    validAfterBlock === null ? null : `after block ${validAfterBlock}`,
    validUntilBlock === null ? null : `until block ${validUntilBlock}`,
  ].filter((bound) => bound !== null)
  return {
    outcome: 'pass',
    detail: `block window: each sponsorship valid for ${validForBlocks} block${validForBlocks === 1 ? '' : 's'}${bounds.length > 0 ? ` (sponsoring ${bounds.join(', ')})` : ''}, the chain is at block ${currentBlock}`,
  }
}

/**
 * The block range a paymaster signs at `currentBlock` (the chain's head): valid from the head (after the block
 * before it, so a bundle simulated at the head passes) for `validForBlocks` more blocks, ending no later than the
 * dApp's `validUntilBlock`. The EntryPoint reads a range only from block 1 on.
 */
export function computeBlockWindow(policy: BlockWindowPolicy, currentBlock: number): BlockRange {
  return {
    validAfterBlock: Math.max(currentBlock - 1, policy.validAfterBlock ?? 0, 1),
    validUntilBlock: Math.min(
      currentBlock + policy.validForBlocks,
      policy.validUntilBlock ?? MAX_WINDOW_BLOCK,
      MAX_WINDOW_BLOCK,
    ),
  }
}

/** What the decision says when the dApp asks block windows of an operation whose EntryPoint reads only times. */
export function describeBlockWindowFallback(version: EntryPointVersion): StepOutcome {
  return {
    outcome: 'pass',
    detail: `block window not applied to this EntryPoint v${version} operation (${BLOCK_WINDOW_VERSIONS_NOTE}): signed with a time window`,
  }
}

/** The chain's head, read now (not the client's cached block number: a block window is counted from it). */
export async function readChainHead(chain: Pick<Chain, 'publicClient'>): Promise<number> {
  return Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }))
}
