import type { Address, Hex, RpcStateOverride } from 'viem'
import { requestRpc } from '../../chain/node/requestRpc'
import { type TraceCallRequest, traceCall } from '../../chain/node/traceCall'
import type { Chain } from '../../chain/types'
import type { CallFrame } from '../../entryPoint/estimation/callFrame'
import { readStructLogBody } from './readStructLogBody'
import {
  type NativeTraceGap,
  type NativeValidationTrace,
  type StackValidationTrace,
  type StructLog,
  traceFromStructLogs,
} from './traceFromStructLogs'

/** Longest validation (in EVM steps) traced natively: about 75 bytes of JSON per step. */
const MAX_NATIVE_STEPS = 100_000

type StructLogResult = { structLogs: StructLog[] }
/** prestateTracer's answer: each account the call touched, with its code if it had any. */
type PrestateResult = Record<Address, { code?: Hex }>
/** Addresses up to this one are precompiles (the JavaScript tracer's bound for code-less targets). */
const LAST_PRECOMPILE = 0xffff

export type NativeValidationResult = NativeValidationTrace & {
  /**
   * When an entity's frame ran `EXTCODESIZE ISZERO`: every account the call touched that had no code before it
   * (precompiles aside), one of which that EXTCODESIZE may have inspected (OP-041). The sender is among them while
   * it is deployed (OP-042).
   */
  codelessAccounts: Address[]
}

/**
 * Traces a simulateValidation call with the node's built-in tracers only: the struct logger without stack
 * or memory, and the call tracer, both at the same block so that they see the same state. About a tenth of
 * the node's work for the JavaScript tracer (measured on anvil: 7.5 against 74 ms of CPU for a Smart Account
 * v2 validation). Keccak preimages are not in the result; a gap says what only the JavaScript tracer can see. When an
 * entity probes an address's code size, a third trace (prestateTracer, without storage) lists the accounts without
 * code it may have probed.
 */
export async function traceValidationNatively(
  chain: Chain,
  request: TraceCallRequest,
  stateOverride: RpcStateOverride | undefined,
): Promise<NativeValidationResult | NativeTraceGap> {
  const blockTag = await requestRpc<Hex>(chain.publicClient, 'eth_blockNumber', [])
  const traced = await traceStepsAndCalls(chain, request, stateOverride, blockTag, false)
  if ('gap' in traced) return traced
  const { trace } = traced
  if (!trace.probesCodeSize) return { ...trace, codelessAccounts: [] }
  const codeOf = await traceCodeOfTouchedAccounts(chain, request, stateOverride, blockTag)
  const codelessAccounts = Object.entries(codeOf)
    .filter(([address, code]) => !code && Number.parseInt(address, 16) > LAST_PRECOMPILE)
    .map(([address]) => address as Address)
  return { ...trace, codelessAccounts }
}

/**
 * The struct log with stacks, the call tree and (when the validation calls a code-less target or runs an EXTCODE*
 * opcode) the code of the accounts it touched: what the JavaScript tracer records but the keccak preimages, for
 * which the hashes are given. The EntryPoint's stack-only operands, the exact storage slots and the code-less targets
 * are no gap here: the gaps left are a validation too long to log, and a target created during the validation (whose
 * code the state before it cannot tell), but the sender's, which the checks exempt (OP-042). A struct log with
 * stacks is some five times the text of one without, and costs the node about a third of the JavaScript tracer.
 */
export async function traceValidationWithStack(
  chain: Chain,
  request: TraceCallRequest,
  stateOverride: RpcStateOverride | undefined,
  sender: Address,
): Promise<Omit<StackValidationTrace, 'codeProbes'> | NativeTraceGap> {
  const blockTag = await requestRpc<Hex>(chain.publicClient, 'eth_blockNumber', [])
  const traced = await traceStepsAndCalls(chain, request, stateOverride, blockTag, true)
  if ('gap' in traced) return traced
  const { trace, calls } = traced
  const { codeProbes, ...rest } = trace as StackValidationTrace
  if (codeProbes.length > 0) {
    const created = new Set(listCreatedAddresses(calls))
    const codeOf = await traceCodeOfTouchedAccounts(chain, request, stateOverride, blockTag)
    for (const { frame, target, opcode } of codeProbes) {
      if (frame.codeless[target] !== undefined || Number.parseInt(target, 16) <= LAST_PRECOMPILE) continue
      if (target === sender) continue
      if (created.has(target)) return { gap: `${opcode} on ${target}, created during the validation` }
      if (!(target in codeOf))
        return { gap: `${opcode} on ${target}, which the prestate trace does not list` }
      if (!codeOf[target]) frame.codeless[target] = opcode
    }
  }
  return rest
}

/** The struct log (with or without stacks) and the call tree at one block, rebuilt into the validation frames. */
async function traceStepsAndCalls(
  chain: Chain,
  request: TraceCallRequest,
  stateOverride: RpcStateOverride | undefined,
  blockTag: Hex,
  withStack: boolean,
): Promise<{ trace: NativeValidationTrace | StackValidationTrace; calls: CallFrame } | NativeTraceGap> {
  const [steps, calls] = await Promise.all([
    traceCall<StructLogResult>(chain, request, {
      disableStack: !withStack,
      disableStorage: false,
      enableMemory: false,
      limit: MAX_NATIVE_STEPS,
      stateOverrides: stateOverride,
      blockTag,
      readBody: readStructLogBody,
    }),
    traceCall<CallFrame>(chain, request, { tracer: 'callTracer', stateOverrides: stateOverride, blockTag }),
  ])
  if (!Array.isArray(steps?.structLogs) || !calls) return { gap: 'the node returned no struct log' }
  if (steps.structLogs.length >= MAX_NATIVE_STEPS)
    return { gap: `validation longer than ${MAX_NATIVE_STEPS} steps` }
  const trace = withStack
    ? traceFromStructLogs(steps.structLogs, calls, calls.output ?? null, { withStack: true })
    : traceFromStructLogs(steps.structLogs, calls, calls.output ?? null)
  if ('gap' in trace) return trace
  return { trace, calls }
}

/** Whether each account the call touched had code before it (prestateTracer, without storage), by lowercase address. */
async function traceCodeOfTouchedAccounts(
  chain: Chain,
  request: TraceCallRequest,
  stateOverride: RpcStateOverride | undefined,
  blockTag: Hex,
): Promise<Record<Address, boolean>> {
  const touched = await traceCall<PrestateResult>(chain, request, {
    tracer: 'prestateTracer',
    tracerConfig: { disableStorage: true },
    stateOverrides: stateOverride,
    blockTag,
  })
  const codeOf: Record<Address, boolean> = {}
  for (const [address, account] of Object.entries(touched ?? {}))
    codeOf[address.toLowerCase() as Address] = Boolean(account.code && account.code !== '0x')
  return codeOf
}

/** The addresses the call tree's CREATE and CREATE2 frames made, lowercase. */
function listCreatedAddresses(frame: CallFrame): Address[] {
  const own =
    frame.type === 'CREATE' || frame.type === 'CREATE2' ? [(frame.to ?? '0x').toLowerCase() as Address] : []
  return [...own, ...(frame.calls ?? []).flatMap(listCreatedAddresses)]
}
