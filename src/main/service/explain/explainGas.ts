import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import type { ExplainedEvent, GasAccount } from './types'

/**
 * The operation's limits (each phase's, and preVerificationGas) against the gas its UserOperationEvent says it was
 * charged for, and the preVerificationGas the service's calculator asks of it, broken into its parts.
 */
export function explainGas(
  entryPoint: EntryPointModule,
  userOperation: UserOperationBase,
  events: readonly ExplainedEvent[],
): GasAccount {
  const limits: Record<string, string> = {}
  for (const { field, value } of Object.values(entryPoint.phaseGasLimits(userOperation)))
    limits[field] = value.toString()
  limits.preVerificationGas = userOperation.preVerificationGas.toString()
  const limitTotal = Object.values(limits).reduce((sum, value) => sum + BigInt(value), 0n)
  const event = events.find((e) => e.name === 'UserOperationEvent' && e.contract?.startsWith('EntryPoint'))
  const args = (event?.args ?? {}) as { actualGasUsed?: string; actualGasCost?: string }
  const used = args.actualGasUsed ?? null
  const breakdown = entryPoint.breakDownPreVerificationGas(userOperation)
  return {
    limits,
    limitTotal: limitTotal.toString(),
    actualGasUsed: used,
    actualGasCost: args.actualGasCost ?? null,
    usedPercent: used === null || limitTotal === 0n ? null : Number((BigInt(used) * 1000n) / limitTotal) / 10,
    preVerificationGas: {
      carried: userOperation.preVerificationGas.toString(),
      calculated: breakdown.total.toString(),
      calculator: breakdown.calculator,
      parts: breakdown.parts,
    },
  }
}
