import type { UserOperationJson } from '../../../../shared/sandbox'
import { consoleApi } from '../../api/console'
import { errorMessage } from '../../api/http'
import type { Run } from './run'
import { withSimulationLimits } from './userOperationFields'

/**
 * The run's operation as Simulate sends it to opstation_simulateUserOperation. When a step before the send failed
 * (an estimate refuses an operation whose call reverts), the operation is simulated all the same, to say why: with
 * generous limits where no estimate came back, signed by the service (the console never holds the key). The note
 * says so.
 */
export async function operationToSimulate(run: Run & { op: UserOperationJson }): Promise<{
  op: UserOperationJson
  note: string | null
}> {
  const failed = run.steps.find((s) => s.status === 'failed')
  if (!failed) return { op: run.op, note: null }
  const { op, filled } = withSimulationLimits(run.op)
  const limits = filled.length ? `with generous limits (${filled.join(', ')})` : 'as built'
  try {
    const signed = await consoleApi.sandbox.signUserOperation(
      run.config.account.address,
      { userOperation: op },
      run.config.chainId,
    )
    return {
      op: signed.userOperation,
      note: `"${failed.title}" failed: simulated ${limits}, signed, to show why.`,
    }
  } catch (err) {
    return { op, note: `"${failed.title}" failed: simulated ${limits}, unsigned (${errorMessage(err)}).` }
  }
}
