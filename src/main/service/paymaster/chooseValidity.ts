import type { Chain } from '../chain'
import type { PaymasterChoice, SponsorableOperation } from '../entryPoint'

export type Validity = { validUntil: number; validAfter: number }

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
