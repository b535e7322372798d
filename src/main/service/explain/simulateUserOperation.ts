import type { Address, Hex } from 'viem'
import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import { parseParam } from '../schemas/parseParam'
import type { ExplainContext } from './explainContext'
import { explainTrace } from './explainTrace'
import { traceCallFrames } from './traceFrames'
import type { ExplainedPhase, Explanation } from './types'

export type SimulateUserOperationParameters = {
  /** The operation as the client sent it: parsed with the schema of `entryPoint`'s version (signature optional). */
  userOperation: unknown
  entryPoint: Address
}

/**
 * What stands in for a missing signature: a well-formed 65-byte ECDSA signature that no key made (low s, v 28), so
 * that an account recovering a signer gets a wrong one and answers SIG_VALIDATION_FAILED instead of reverting on
 * the signature's length. Accounts that check their signatures otherwise may still revert on it.
 */
export const STAND_IN_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/**
 * The explanation of an operation not sent: `handleOps([op])` from the executor, traced with debug_traceCall against
 * the latest block (nothing changes on chain). A validation failure reverts handleOps (`rejected`, with the frame it
 * started in); an execution failure is `would-revert`. An operation without a signature (absent or `0x`) is
 * simulated with a stand-in one and reported `signature: 'missing'`; when a signature fails (missing or invalid),
 * the rest is simulated past it with simulateHandleOp, which returns the failure instead of reverting.
 */
export async function simulateUserOperation(
  context: ExplainContext,
  { userOperation: raw, entryPoint: address }: SimulateUserOperationParameters,
): Promise<Explanation> {
  const { chain } = context
  const entryPoint = context.entryPoints.require(address)
  const given = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
  const unsigned = given.signature === undefined || given.signature === null || given.signature === '0x'
  const userOperation = parseParam(
    entryPoint.userOperationSchema,
    unsigned ? { ...given, signature: STAND_IN_SIGNATURE } : raw,
    'params[0]',
  )
  const userOpHash = entryPoint.computeUserOpHash(userOperation, chain.chainId).toLowerCase() as Hex
  const [plan, block] = await Promise.all([
    entryPoint.planBundle(chain, [userOperation]),
    chain.publicClient.getBlock({ blockTag: 'latest' }),
  ])
  const checkedAt = { timestamp: block.timestamp, number: block.number }
  const notes = plan.invalid.map((invalid) => `its bundle could not carry it: ${invalid.reason}`)
  const simulate = (call: 'handleOps' | 'simulateHandleOp') =>
    explainTrace(context, {
      entryPoint,
      userOperation,
      userOpHash,
      trace: () => {
        const { request, stateOverride } =
          call === 'handleOps'
            ? {
                request: {
                  from: chain.executor.address,
                  to: entryPoint.address,
                  data: entryPoint.encodeHandleOps([userOperation], chain.executor.address),
                  gas: block.gasLimit,
                },
                stateOverride: plan.stateOverride,
              }
            : entryPoint.simulateHandleOpCall(userOperation, block.gasLimit, plan.stateOverride)
        return traceCallFrames(chain, request, stateOverride)
      },
      beforeBlock: 'latest',
      checkedAt,
    })
  const bundled = markMissing(await simulate('handleOps'), unsigned)
  const failedSignature = bundled.phases.some(
    (phase) => phase.signature === 'invalid' || phase.signature === 'missing',
  )
  const validationReverted = bundled.phases.some((phase) => phase.name.endsWith('validation') && phase.error)
  if (unsigned && validationReverted)
    notes.push(
      'no signature was given, and the account reverts on the stand-in one: what follows its validation (the ' +
        "paymaster's validation, the execution, postOp) could not be shown; sign it, or give the account's own " +
        'dummy signature, to simulate the rest',
    )
  if (!bundled.handleOpsReverted || !failedSignature || validationReverted)
    return explanationOf(
      entryPoint,
      userOpHash,
      bundled,
      notes,
      bundled.handleOpsReverted ? 'rejected' : null,
    )
  // handleOps refuses a failed signature (AA24/AA34): simulateHandleOp runs the rest past it.
  const whole = markMissing(await simulate('simulateHandleOp'), unsigned)
  notes.push(
    `${unsigned ? 'no signature was given (a stand-in was used)' : 'a signature is invalid'}: handleOps would refuse ` +
      `the operation (${bundled.reason ?? 'signature error'}); the rest is simulated past it with simulateHandleOp`,
  )
  // Unsigned, the operation is told as it would run once signed; with an invalid signature, it is refused.
  return unsigned
    ? explanationOf(entryPoint, userOpHash, whole, notes, null)
    : explanationOf(entryPoint, userOpHash, { ...whole, reason: bundled.reason }, notes, 'rejected')
}

type Simulated = Awaited<ReturnType<typeof explainTrace>>

/** The account's validation of an operation sent without a signature: its verdict is `missing`, not `invalid`. */
function markMissing(simulated: Simulated, unsigned: boolean): Simulated {
  if (!unsigned) return simulated
  const phases = simulated.phases.map(
    (phase): ExplainedPhase =>
      phase.name === 'account-validation' ? { ...phase, signature: 'missing' } : phase,
  )
  return { ...simulated, phases }
}

/** The simulation's explanation: `rejected` when given, else by its phases (v0.6's simulateHandleOp always reverts). */
function explanationOf(
  entryPoint: EntryPointModule<UserOperationBase>,
  userOpHash: Hex,
  { handleOpsReverted: _, notes: traceNotes, ...parts }: Simulated,
  notes: string[],
  rejected: 'rejected' | null,
): Explanation {
  const failed = parts.phases.some((phase) => phase.error)
  return {
    userOpHash,
    entryPoint: entryPoint.address,
    status: rejected ?? (failed ? 'would-revert' : 'would-succeed'),
    transactionHash: null,
    blockNumber: null,
    ...parts,
    reason: rejected || failed ? parts.reason : null,
    notes: [...notes, ...traceNotes],
  }
}
