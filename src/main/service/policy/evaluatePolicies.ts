import type { Address, Hex } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import type { Chain } from '../chain'
import type { EntryPointVersion } from '../entryPoint'
import type { Store } from '../store/openStore'
import { listSmartContracts } from '../store/smartContracts.repo'
import { listSponsorshipUsage } from '../store/sponsorshipUsage.repo'
import { checkBlockWindow, describeBlockWindowFallback, readChainHead } from './blockWindow'
import { checkLimits, getEarliestCycleStart } from './checkLimits'
import { checkWhitelist } from './checkWhitelist'
import type { StepLog } from './createStepLog'
import { decodeCallData } from './decodeCallData'
import type { UsageTracker } from './trackSponsorshipUsage'
import type { StepOutcome } from './types'

export type EvaluatePoliciesParameters = {
  store: Store
  usage: UsageTracker
  dapp: Dapp
  op: {
    sender: Address
    initCode: Hex
    callData: Hex
    entryPointVersion: EntryPointVersion
    /** Its EntryPoint reads windows in block numbers (v0.9): the dApp's block window applies. */
    blockWindows: boolean
  }
  steps: StepLog
  /** Its head is read when the dApp's block window applies. */
  chain: Pick<Chain, 'publicClient'>
}

/**
 * Steps 1–3 of the SPONSORED decision, from the partial op alone: the dApp is active; every call is
 * whitelisted; the validity window, the block window (v0.9; said to be left out for older versions) and the spending
 * limits allow one more operation. Returns false at the first
 * failing step.
 */
export async function evaluatePolicies({
  store,
  usage,
  dapp,
  op,
  steps,
  chain,
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
  // The block window: checked at the chain's head where the version reads one, else said to be left out.
  let blockWindow: StepOutcome | null = null
  if (policies.blockWindow)
    blockWindow = op.blockWindows
      ? checkBlockWindow(policies.blockWindow, await readChainHead(chain))
      : describeBlockWindowFallback(op.entryPointVersion)
  if (blockWindow?.outcome === 'fail') return steps.add('limits', blockWindow)
  const hasLimits =
    policies.limits.some((l) => l.active) || policies.validAfter !== null || policies.validUntil !== null
  if (!hasLimits)
    return steps.add(
      'limits',
      blockWindow
        ? { outcome: 'pass', detail: `No spending limits or time window are set; ${blockWindow.detail}` }
        : { outcome: 'pass', detail: 'No spending limits or validity window are set' },
    )
  // Count what has been mined up to now (the tracker also follows the chain's clock).
  if (policies.limits.some((l) => l.active)) await usage.sync()
  const now = usage.now()
  const since = getEarliestCycleStart(policies.limits, now)
  const mined = listSponsorshipUsage(store, dapp.id, since).map((u) => ({
    sender: u.sender as Address,
    gasCostWei: BigInt(u.gasCostWei),
    minedAt: u.minedAt,
  }))
  const limits = checkLimits({ policies, usage: mined, sender: op.sender, now })
  if (limits.outcome === 'fail' || !blockWindow) return steps.add('limits', limits)
  return steps.add('limits', { outcome: 'pass', detail: `${limits.detail}; ${blockWindow.detail}` })
}
