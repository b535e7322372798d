import { traceCall } from '../../chain/node/traceCall'
import type { Chain } from '../../chain/types'
import type { CallFrame } from '../../entryPoint/estimation/callFrame'
import type { EntryPointModule, UserOperationBase } from '../../entryPoint/types'
import { SIMULATION_GAS } from '../bundlerOptions'

/**
 * Which signature failed when a paymaster is present (simulateValidation only says that one did): the account's
 * validationData, read from a call trace.
 */
export async function findSignatureFailure(
  chain: Chain,
  entryPoint: EntryPointModule,
  op: UserOperationBase,
): Promise<string> {
  try {
    const { request, stateOverride } = entryPoint.validationCall(op, SIMULATION_GAS)
    const top = await traceCall<CallFrame>(chain, request, {
      tracer: 'callTracer',
      stateOverrides: stateOverride,
    })
    const accountFrame = top.calls?.find((f) => f.to?.toLowerCase() === op.sender.toLowerCase())
    const validationData = accountFrame?.output ? BigInt(accountFrame.output.slice(0, 66)) : 0n
    return (validationData & ((1n << 160n) - 1n)) === 1n ? 'AA24 signature error' : 'AA34 signature error'
  } catch {
    // One AA code only: viem types an error by the first code its list finds in the message, wherever it stands.
    return "AA24 signature error (the account's or the paymaster's: the trace that tells them apart failed)"
  }
}
