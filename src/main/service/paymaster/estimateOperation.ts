import type { Fees, GasLimits, PaymasterChoice, SponsorableOperation } from '../entryPoint'
import { createEntryPoints, listServedEntryPoints } from '../entryPoint'
import { explainRejection } from '../explain/explainRejection'
import { type PaymasterDeps, requireChain } from './paymasterDeps'

/**
 * The paymaster's estimate of an operation (with `paymaster`'s data signed for each trial, or without a paymaster):
 * every paymaster method estimates through here. A failure is the bundler estimate's error: its ERC-7769 code, one
 * line naming the phase, the frame and the decoded reason, the same fields in its `data` (explain/explainRejection).
 */
export async function estimateOperation(
  deps: Pick<PaymasterDeps, 'getChain' | 'store'>,
  op: SponsorableOperation,
  fees: Fees,
  paymaster?: PaymasterChoice,
): Promise<GasLimits> {
  const chain = requireChain(deps)
  try {
    return await op.estimate(chain, fees, paymaster)
  } catch (err) {
    const entryPoints = createEntryPoints((module) => listServedEntryPoints(chain).includes(module))
    const entryPoint = entryPoints.find(op.entryPoint)
    if (!entryPoint) throw err
    throw await explainRejection({ chain, entryPoints, store: deps.store }, err, { entryPoint })
  }
}
