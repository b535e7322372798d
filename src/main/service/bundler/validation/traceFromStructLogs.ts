import type { Address, Hex } from 'viem'
import type { CallFrame } from '../../entryPoint/estimation/callFrame'
import {
  createValidationFrame,
  type StorageAccess,
  type ValidationFrame,
  type ValidationTrace,
} from './validationTracer'

/** One step of geth's struct logger, as anvil and geth return it with `disableStack: true`. */
export type StructLog = {
  op: string
  /** Gas left before the step (needed at SSTORE steps only). */
  gas?: number
  depth: number
  /** Storage of the running contract touched so far in the call (SLOAD/SSTORE steps only). */
  storage?: Record<string, string>
}

/** What the struct log and the call tree cannot tell exactly, so the JavaScript tracer has to. */
export type NativeTraceGap = { gap: string }

/**
 * The frames the native traces rebuild, and whether an entity's frame ran `EXTCODESIZE ISZERO` (allowed on the
 * EntryPoint, OP-051): its target is on the stack only, so whether it has code (OP-041) is for the node's state to say.
 */
export type NativeValidationTrace = Omit<ValidationTrace, 'keccak'> & { probesCodeSize: boolean }

const CALL_OPCODES = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])
const FRAME_OPCODES = new Set([...CALL_OPCODES, 'CREATE', 'CREATE2'])
/** Struct-log names of the opcodes ERC-7562 restricts, as the JavaScript tracer names them. */
const RESTRICTED_OPCODES: Record<string, string> = {
  GASPRICE: 'GASPRICE',
  GASLIMIT: 'GASLIMIT',
  DIFFICULTY: 'DIFFICULTY',
  PREVRANDAO: 'DIFFICULTY',
  TIMESTAMP: 'TIMESTAMP',
  BASEFEE: 'BASEFEE',
  BLOCKHASH: 'BLOCKHASH',
  NUMBER: 'NUMBER',
  ORIGIN: 'ORIGIN',
  COINBASE: 'COINBASE',
  SELFDESTRUCT: 'SELFDESTRUCT',
  BLOBHASH: 'BLOBHASH',
  BLOBBASEFEE: 'BLOBBASEFEE',
  BALANCE: 'BALANCE',
  SELFBALANCE: 'SELFBALANCE',
  INVALID: 'INVALID',
}
/** Opcodes whose operand (a transient slot, an inspected address) only the stack holds. */
const STACK_ONLY_OPCODES = new Set(['TLOAD', 'TSTORE', 'EXTCODEHASH', 'EXTCODECOPY'])
const CREATE_OPCODES = new Set(['CREATE', 'CREATE2'])
/** Calls to addresses up to this one are precompiles (the JavaScript tracer's bound). */
const LAST_PRECOMPILE = 0xffff

type OpenCall = { frame: CallFrame; nextChild: number; storageOwner: string }

/**
 * Rebuilds what the validation tracer (`validationTracer`) records, without keccak preimages, from two native
 * traces of the same simulateValidation: the struct log without stack (opcodes, depths, gas, and the storage
 * each SLOAD/SSTORE leaves) and the call tree (targets, selectors, values, errors). Native tracers cost a
 * fraction of a JavaScript tracer that runs on every step. Where the two traces cannot say exactly what the
 * JavaScript tracer would record, returns the gap instead; storage reads that the struct log leaves ambiguous
 * (a slot the contract touched before, read again) count as reads of every slot it touched, which can only
 * add violations, never hide one.
 */
export function traceFromStructLogs(
  logs: StructLog[],
  root: CallFrame,
  output: Hex | null,
): NativeValidationTrace | NativeTraceGap {
  const frames: ValidationFrame[] = []
  const entryPoint = (root.to ?? '').toLowerCase()
  let probesCodeSize = false
  let current: ValidationFrame | null = null
  let lastOp = ''
  const open: OpenCall[] = [{ frame: root, nextChild: 0, storageOwner: (root.to ?? '').toLowerCase() }]
  const lastStorage = new Map<string, Record<string, string>>()

  for (let i = 0; i < logs.length; i++) {
    const log = logs[i] as StructLog
    while (log.depth < open.length) {
      const done = open.pop() as OpenCall
      if (done.nextChild !== (done.frame.calls?.length ?? 0))
        return { gap: 'call tree and struct log differ' }
    }
    if (log.depth !== open.length) return { gap: 'struct log depth does not follow the calls' }
    const call = open[open.length - 1] as OpenCall
    const op = log.op

    let child: CallFrame | undefined
    if (FRAME_OPCODES.has(op)) {
      child = call.frame.calls?.[call.nextChild++]
      if (!child || child.type !== op) return { gap: 'call tree and struct log differ' }
      const entered = logs[i + 1]?.depth === log.depth + 1
      if (entered) {
        const keepsStorage = op === 'DELEGATECALL' || op === 'CALLCODE'
        open.push({
          frame: child,
          nextChild: 0,
          storageOwner: keepsStorage ? call.storageOwner : (child.to ?? '').toLowerCase(),
        })
      } else if (log.depth > 1 && !isPrecompile(child.to)) {
        // No code at the target, or a call that failed before it ran: only the node's state tells which.
        return { gap: `${op} to ${child.to} ran no code` }
      }
    }

    let slots: string[] = []
    if (op === 'SLOAD' || op === 'SSTORE') {
      if (!log.storage) return { gap: 'struct log without storage' }
      slots = touchedSlots(log.storage, lastStorage.get(call.storageOwner))
      lastStorage.set(call.storageOwner, log.storage)
    }

    if (log.depth === 1) {
      if (child && (op === 'CALL' || op === 'STATICCALL')) {
        current = createValidationFrame((child.to ?? '0x').toLowerCase() as Address, selectorOf(child.input))
        frames.push(current)
      }
      if (child && current && runsOutOfGas(child)) current.outOfGas = true
      lastOp = op
      continue
    }
    const frame = current
    if (frame === null) continue
    if (lastOp === 'GAS' && !CALL_OPCODES.has(op)) count(frame.opcodes, 'GAS')
    lastOp = op
    const restricted = RESTRICTED_OPCODES[op]
    if (restricted) count(frame.opcodes, restricted)
    if (STACK_ONLY_OPCODES.has(op)) return { gap: `${op} in validation` }
    if (op === 'EXTCODESIZE') {
      // Followed by ISZERO it may inspect the EntryPoint (OP-051); otherwise only the stack tells what it inspects.
      if (logs[i + 1]?.op !== 'ISZERO') return { gap: 'EXTCODESIZE in validation' }
      if (frame.target !== entryPoint) probesCodeSize = true
      continue
    }
    if (op === 'SLOAD' || op === 'SSTORE') {
      if (op === 'SSTORE' && log.gas !== undefined && log.gas < 2300) frame.outOfGas = true
      let access: StorageAccess | undefined = frame.access[call.storageOwner as Address]
      if (!access) {
        access = { reads: {}, writes: {} }
        frame.access[call.storageOwner as Address] = access
      }
      const into = op === 'SLOAD' ? access.reads : access.writes
      for (const slot of slots) into[slot as Hex] = true
      continue
    }
    if (child && CREATE_OPCODES.has(op)) {
      frame.creates.push({
        opcode: op as 'CREATE' | 'CREATE2',
        from: child.from.toLowerCase() as Address,
        to: (child.to ?? '0x').toLowerCase() as Address,
      })
    }
    if (child && CALL_OPCODES.has(op)) {
      const withValue = op === 'CALL' || op === 'CALLCODE'
      frame.calls.push({
        opcode: op,
        from: child.from.toLowerCase() as Address,
        to: (child.to ?? '0x').toLowerCase() as Address,
        selector: selectorOf(child.input),
        withValue: withValue && child.value !== undefined && BigInt(child.value) !== 0n,
      })
    }
  }
  for (const call of open) {
    if (call.nextChild !== (call.frame.calls?.length ?? 0)) return { gap: 'call tree and struct log differ' }
  }
  return { frames, output, probesCodeSize }
}

/**
 * The slot an SLOAD/SSTORE touched: the one its storage snapshot adds or changes against the contract's
 * previous snapshot. A slot read again (or written with its value) changes nothing: then any slot the
 * contract touched so far.
 */
function touchedSlots(
  storage: Record<string, string>,
  previous: Record<string, string> | undefined,
): string[] {
  const changed: string[] = []
  for (const slot in storage) {
    if (previous?.[slot] !== storage[slot]) changed.push(slot.toLowerCase())
  }
  return changed.length > 0 ? changed : Object.keys(storage).map((slot) => slot.toLowerCase())
}

function runsOutOfGas(frame: CallFrame): boolean {
  if (frame.error?.toLowerCase().includes('out of gas')) return true
  return frame.calls?.some(runsOutOfGas) ?? false
}

function isPrecompile(address: Address | undefined): boolean {
  return address !== undefined && Number.parseInt(address, 16) <= LAST_PRECOMPILE
}

function selectorOf(input: Hex | undefined): Hex {
  return input && input.length >= 10 ? (input.slice(0, 10).toLowerCase() as Hex) : '0x'
}

function count(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1
}
