import { formatEther } from 'viem'
import type { StepOutcome } from './types'

/** Gas tank: the dApp's balance on the verifying paymaster covers the op's maximum cost. */
export function checkGasTank(params: { paymasterId: string; balance: bigint; maxCost: bigint }): StepOutcome {
  const { balance, maxCost, paymasterId } = params
  const text = `gas tank ${paymasterId} holds ${formatEther(balance)} ETH; the operation may cost up to ${formatEther(maxCost)} ETH`
  if (balance < maxCost) return { outcome: 'fail', detail: `Gas tank too low: ${text}` }
  return { outcome: 'pass', detail: `Covered: ${text}` }
}
