import type { Address, Hex } from 'viem'
import { parseParam } from '../schemas/parseParam'
import type { ExplainContext } from './explainContext'
import { explainTrace } from './explainTrace'
import { traceCallFrames } from './traceFrames'
import type { Explanation } from './types'

export type SimulateUserOperationParameters = {
  /** The operation as the client sent it: parsed with the schema of `entryPoint`'s version. */
  userOperation: unknown
  entryPoint: Address
}

/**
 * The explanation of an operation not sent: `handleOps([op])` from the executor, traced with debug_traceCall against
 * the latest block (nothing changes on chain). A validation failure reverts handleOps (`rejected`, with the frame it
 * started in); an execution failure is `would-revert`.
 */
export async function simulateUserOperation(
  context: ExplainContext,
  { userOperation: raw, entryPoint: address }: SimulateUserOperationParameters,
): Promise<Explanation> {
  const { chain } = context
  const entryPoint = context.entryPoints.require(address)
  const userOperation = parseParam(entryPoint.userOperationSchema, raw, 'params[0]')
  const userOpHash = entryPoint.computeUserOpHash(userOperation, chain.chainId).toLowerCase() as Hex
  const [plan, block] = await Promise.all([
    entryPoint.planBundle(chain, [userOperation]),
    chain.publicClient.getBlock({ blockTag: 'latest' }),
  ])
  const notes = plan.invalid.map((invalid) => `its bundle could not carry it: ${invalid.reason}`)
  const {
    handleOpsReverted,
    notes: traceNotes,
    ...parts
  } = await explainTrace(context, {
    entryPoint,
    userOperation,
    userOpHash,
    trace: () =>
      traceCallFrames(
        chain,
        {
          from: chain.executor.address,
          to: entryPoint.address,
          data: entryPoint.encodeHandleOps([userOperation], chain.executor.address),
          gas: block.gasLimit,
        },
        plan.stateOverride,
      ),
    beforeBlock: 'latest',
    checkedAt: { timestamp: block.timestamp, number: block.number },
  })
  const failed = parts.phases.some((phase) => phase.error)
  return {
    userOpHash,
    entryPoint: entryPoint.address,
    status: handleOpsReverted ? 'rejected' : failed ? 'would-revert' : 'would-succeed',
    transactionHash: null,
    blockNumber: null,
    ...parts,
    notes: [...notes, ...traceNotes],
  }
}
