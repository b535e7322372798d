import type { DappPolicies } from '../../../shared/api/dapps'
import type { Chain } from '../chain'
import {
  type BlockRange,
  encodeBlockRange,
  type PaymasterChoice,
  readBlockRange,
  type SponsorableOperation,
} from '../entryPoint'
import { computeBlockWindow, readChainHead } from '../policy/blockWindow'

export type Validity = { validUntil: number; validAfter: number }

/** The window a paymaster signs, as its validUntil/validAfter fields, with the block range they name (v0.9). */
export type SignedWindow = Validity & { blockRange: BlockRange | null }

/**
 * The window a paymaster signature gets: from now to `latestUntil`, or the window the operation already carries
 * from this paymaster where its version keeps it (v0.9: the account signed the stub's paymasterData before
 * pm_getPaymasterData, so signing the same window keeps its userOpHash), while that window is open and ends no
 * later than `latestUntil`.
 */
export function chooseValidity(
  chain: Chain,
  op: SponsorableOperation,
  kind: PaymasterChoice['kind'],
  now: number,
  latestUntil: number,
): Validity {
  const carried = op.carriedWindow(chain, kind)
  if (carried && carried.validUntil > now && carried.validUntil <= latestUntil && carried.validAfter <= now)
    return carried
  return { validUntil: latestUntil, validAfter: 0 }
}

/**
 * chooseValidity in block numbers (v0.9): the block range `latest` (computed at `currentBlock`, the chain's head), or
 * the block range the operation already carries from this paymaster while the head is inside it and it ends no later
 * than `latest`.
 */
export function chooseBlockValidity(
  chain: Chain,
  op: SponsorableOperation,
  kind: PaymasterChoice['kind'],
  currentBlock: number,
  latest: BlockRange,
): SignedWindow {
  const carried = op.carriedWindow(chain, kind)
  const range = carried && readBlockRange(carried, { blockRanges: op.blockWindows })
  if (
    carried &&
    range &&
    range.validAfterBlock < currentBlock &&
    range.validUntilBlock > currentBlock &&
    range.validUntilBlock <= latest.validUntilBlock
  )
    return { ...carried, blockRange: range }
  return { ...encodeBlockRange(latest), blockRange: latest }
}

export type ChooseSponsorshipWindowParameters = {
  chain: Chain
  policies: Pick<DappPolicies, 'blockWindow' | 'validUntil'>
  op: SponsorableOperation
  /** The chain's time (unix seconds). */
  now: number
  /** Seconds a time window lasts (the request's expiryDuration). */
  expiryDuration: number
}

/**
 * The window the verifying paymaster signs a dApp's sponsorship for: in block numbers when the dApp asks a block
 * window and the operation's EntryPoint reads one (v0.9), from the chain's head; otherwise in time, as chooseValidity
 * picks it, ending by now + expiryDuration and the dApp's validUntil.
 */
export async function chooseSponsorshipWindow({
  chain,
  policies,
  op,
  now,
  expiryDuration,
}: ChooseSponsorshipWindowParameters): Promise<SignedWindow> {
  if (!policies.blockWindow || !op.blockWindows) {
    const latestUntil = Math.min(now + expiryDuration, policies.validUntil ?? Number.POSITIVE_INFINITY)
    return { ...chooseValidity(chain, op, 'verifying', now, latestUntil), blockRange: null }
  }
  const currentBlock = await readChainHead(chain)
  return chooseBlockValidity(
    chain,
    op,
    'verifying',
    currentBlock,
    computeBlockWindow(policies.blockWindow, currentBlock),
  )
}
