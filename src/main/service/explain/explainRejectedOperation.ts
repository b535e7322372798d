import type { Address, Hex } from 'viem'
import type { UserOperationRecord } from '../../../shared/api/userOperations'
import type { ExplainContext } from './explainContext'
import { simulateUserOperation } from './simulateUserOperation'
import type { Explanation } from './types'

const REJECTED_NOTE =
  'rejected by eth_sendUserOperation, so never in a transaction: simulated as it was sent, when it was rejected ' +
  '(opstation_simulateUserOperation traces it as it would run now)'

/**
 * The explanation of an operation rejected at admission: the operation its record keeps, simulated as
 * opstation_simulateUserOperation does (handleOps traced against the latest block, nothing changed on chain), told
 * with its record's status and the reason it was refused: its phases, the frame that failed and why.
 */
export async function explainRejectedOperation(
  context: ExplainContext,
  record: UserOperationRecord & { userOperation: NonNullable<UserOperationRecord['userOperation']> },
): Promise<Explanation> {
  const simulated = await simulateUserOperation(context, {
    userOperation: record.userOperation,
    entryPoint: record.entryPoint as Address,
  })
  const reason = record.failure?.reason ?? simulated.reason
  // The simulation's own words when no phase tells them and they differ from the rejection's (v0.9's simulation
  // contract and its handleOps may name the same fault with different errors).
  const told = simulated.phases.some((phase) => phase.error) || simulated.reason === reason
  const said = simulated.reason && !told ? [`simulated: ${simulated.reason}`] : []
  return {
    ...simulated,
    userOpHash: record.userOpHash as Hex,
    status: 'rejected',
    reason,
    notes: [REJECTED_NOTE, ...said, ...simulated.notes],
  }
}
