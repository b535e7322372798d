import type { Address, Hex } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import type { Store } from '../store/openStore'
import { listSmartContracts } from '../store/smartContracts.repo'
import { listSponsorshipUsage } from '../store/sponsorshipUsage.repo'
import { checkLimits, getEarliestCycleStart } from './checkLimits'
import { checkWhitelist } from './checkWhitelist'
import type { StepLog } from './createStepLog'
import { decodeCallData } from './decodeCallData'
import type { UsageTracker } from './trackSponsorshipUsage'

export type EvaluatePoliciesParameters = {
  store: Store
  usage: UsageTracker
  dapp: Dapp
  op: { sender: Address; initCode: Hex; callData: Hex }
  steps: StepLog
}

/**
 * Steps 1–3 of the SPONSORED decision, from the partial op alone: the dApp is active; every call is
 * whitelisted; the validity window and spending limits allow one more operation. Returns false at the first
 * failing step.
 */
export async function evaluatePolicies({
  store,
  usage,
  dapp,
  op,
  steps,
}: EvaluatePoliciesParameters): Promise<boolean> {
  const active = steps.add(
    'dapp',
    dapp.active
      ? { outcome: 'pass', detail: `dApp "${dapp.name}" is active on chain ${dapp.chainId}` }
      : { outcome: 'fail', detail: `dApp "${dapp.name}" is deactivated` },
  )
  if (!active) return false

  const contracts = listSmartContracts(store, dapp.id)
  if (!steps.add('whitelist', checkWhitelist(decodeCallData(op.callData, op.initCode), contracts)))
    return false

  const { policies } = dapp
  const hasLimits =
    policies.limits.some((l) => l.active) || policies.validAfter !== null || policies.validUntil !== null
  if (!hasLimits)
    return steps.add('limits', { outcome: 'pass', detail: 'No spending limits or validity window are set' })
  // Count what has been mined up to now (the tracker also follows the chain's clock).
  if (policies.limits.some((l) => l.active)) await usage.sync()
  const now = usage.now()
  const since = getEarliestCycleStart(policies.limits, now)
  const mined = listSponsorshipUsage(store, dapp.id, since).map((u) => ({
    sender: u.sender as Address,
    gasCostWei: BigInt(u.gasCostWei),
    minedAt: u.minedAt,
  }))
  return steps.add('limits', checkLimits({ policies, usage: mined, sender: op.sender, now }))
}
