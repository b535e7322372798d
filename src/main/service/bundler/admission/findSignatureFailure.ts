import { encodeSimulateValidation } from '../../chain/entryPoint/encodeEntryPointCall'
import { traceCall } from '../../chain/node/traceCall'
import type { Chain, UserOperationV06 } from '../../chain/types'
import { SIMULATION_GAS } from '../bundlerOptions'
import type { CallFrame } from '../callFrame'

/**
 * Which signature failed when a paymaster is present (simulateValidation only says that one did): the account's
 * validationData, read from a call trace.
 */
export async function findSignatureFailure(chain: Chain, op: UserOperationV06): Promise<string> {
  try {
    const top = await traceCall<CallFrame>(
      chain,
      {
        to: chain.addresses.entryPoint,
        data: encodeSimulateValidation(op),
        gas: SIMULATION_GAS,
      },
      { tracer: 'callTracer' },
    )
    const accountFrame = top.calls?.find((f) => f.to?.toLowerCase() === op.sender.toLowerCase())
    const validationData = accountFrame?.output ? BigInt(accountFrame.output.slice(0, 66)) : 0n
    return (validationData & ((1n << 160n) - 1n)) === 1n ? 'AA24 signature error' : 'AA34 signature error'
  } catch {
    return 'AA24 signature error (or AA34 paymaster signature error)'
  }
}
