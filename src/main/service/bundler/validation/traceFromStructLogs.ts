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
  /**
   * The stack before the step, its top last, as the struct logger writes it with `disableStack: false` (kept by
   * readStructLogBody for the steps whose operands the checks read).
   */
  stack?: Hex[]
}

/** What the struct log and the call tree cannot tell exactly, so the JavaScript tracer has to. */
export type NativeTraceGap = { gap: string }

/**
 * The frames the native traces rebuild, and whether an entity's frame ran `EXTCODESIZE ISZERO` (allowed on the
 * EntryPoint, OP-051): its target is on the stack only, so whether it has code (OP-041) is for the node's state to say.
 */
export type NativeValidationTrace = Omit<ValidationTrace, 'keccak'> & { probesCodeSize: boolean }

/** A call that ran no code, or an EXTCODE* opcode: its target is code-less (OP-041) if the node's state says so. */
export type CodeProbe = { frame: ValidationFrame; target: Address; opcode: string }

/**
 * What the struct log with stacks adds: every storage slot exactly, the targets of the EXTCODE* opcodes and of the
 * calls that ran no code (for the node's state to say which have code), and the hashes of the KECCAK256 steps the
 * JavaScript tracer keeps the input of (32 to 128 bytes), whose preimages only the memory holds.
 */
export type StackValidationTrace = NativeValidationTrace & { codeProbes: CodeProbe[]; keccakHashes: Hex[] }

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
/** Storage and transient storage accesses, by the owner of the running code's storage. */
const STORAGE_OPCODES = new Set(['SLOAD', 'SSTORE', 'TLOAD', 'TSTORE'])
const EXTCODE_OPCODES = new Set(['EXTCODESIZE', 'EXTCODEHASH', 'EXTCODECOPY'])
/**
 * Opcodes whose stack the checks read when the struct log has stacks (readStructLogBody keeps the stack of these, and
 * of the step after a KECCAK256, which holds its hash).
 */
export const STACK_OPCODES = new Set([...STORAGE_OPCODES, ...EXTCODE_OPCODES, 'KECCAK256'])
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
): NativeValidationTrace | NativeTraceGap
/**
 * With stacks (`disableStack: false`, read by readStructLogBody), what the JavaScript tracer records but the keccak
 * preimages and the code-less targets: the slots come from the stack, not the storage snapshots, and the opcodes
 * whose operand only the stack holds are no gap.
 */
export function traceFromStructLogs(
  logs: StructLog[],
  root: CallFrame,
  output: Hex | null,
  options: { withStack: true },
): StackValidationTrace | NativeTraceGap
export function traceFromStructLogs(
  logs: StructLog[],
  root: CallFrame,
  output: Hex | null,
  { withStack = false }: { withStack?: boolean } = {},
): NativeValidationTrace | StackValidationTrace | NativeTraceGap {
  const frames: ValidationFrame[] = []
  const codeProbes: CodeProbe[] = []
  const keccakHashes: Hex[] = []
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
    // The call tree has a frame for a SELFDESTRUCT, which runs no code (the JavaScript tracer only counts the opcode).
    if (op === 'SELFDESTRUCT' && call.frame.calls?.[call.nextChild]?.type === 'SELFDESTRUCT') call.nextChild++
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
        if (!withStack || current === null) return { gap: `${op} to ${child.to} ran no code` }
        codeProbes.push({ frame: current, target: (child.to ?? '0x').toLowerCase() as Address, opcode: op })
      }
    }

    let slots: string[] = []
    if (withStack && STORAGE_OPCODES.has(op)) {
      if (!log.stack?.length) return { gap: `struct log without the stack of ${op}` }
      slots = [toWord(peek(log.stack, 0))]
    } else if (op === 'SLOAD' || op === 'SSTORE') {
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
    if (withStack) {
      const stack = log.stack
      if (STACK_OPCODES.has(op) && !stack?.length) return { gap: `struct log without the stack of ${op}` }
      if (op === 'KECCAK256' && stack) {
        const length = BigInt(peek(stack, 1))
        if (length >= 32n && length <= 128n) {
          const hash = logs[i + 1]?.stack
          if (!hash?.length) return { gap: 'struct log without the hash of a KECCAK256' }
          keccakHashes.push(toWord(peek(hash, 0)) as Hex)
        }
        continue
      }
      if (EXTCODE_OPCODES.has(op) && stack) {
        // As the JavaScript tracer: a code-less target (OP-041) and the EntryPoint's code (OP-051, OP-054).
        const target = toAddress(peek(stack, 0))
        codeProbes.push({ frame, target, opcode: op })
        if (target === entryPoint) {
          if (op !== 'EXTCODESIZE') frame.entryPointCode.push(op)
          else if (logs[i + 1] !== undefined && logs[i + 1]?.op !== 'ISZERO') frame.entryPointCode.push(op)
        }
        continue
      }
    } else if (STACK_ONLY_OPCODES.has(op)) return { gap: `${op} in validation` }
    if (op === 'EXTCODESIZE') {
      // Followed by ISZERO it may inspect the EntryPoint (OP-051); otherwise only the stack tells what it inspects.
      if (logs[i + 1]?.op !== 'ISZERO') return { gap: 'EXTCODESIZE in validation' }
      if (frame.target !== entryPoint) probesCodeSize = true
      continue
    }
    if (STORAGE_OPCODES.has(op)) {
      if (op === 'SSTORE' && log.gas !== undefined && log.gas < 2300) frame.outOfGas = true
      let access: StorageAccess | undefined = frame.access[call.storageOwner as Address]
      if (!access) {
        access = { reads: {}, writes: {} }
        frame.access[call.storageOwner as Address] = access
      }
      const into = op === 'SLOAD' || op === 'TLOAD' ? access.reads : access.writes
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
  return withStack
    ? { frames, output, probesCodeSize, codeProbes, keccakHashes }
    : { frames, output, probesCodeSize }
}

/** The stack entry `depth` below the top (the struct logger writes the top last). */
function peek(stack: Hex[], depth: number): Hex {
  return stack[stack.length - 1 - depth] ?? '0x0'
}

/** A stack entry as a 32-byte word, as the JavaScript tracer writes slots and hashes. */
function toWord(value: Hex): string {
  return `0x${value.slice(2).toLowerCase().padStart(64, '0')}`
}

/** A stack entry as the address it holds (its low 20 bytes), as the JavaScript tracer's toAddress. */
function toAddress(value: Hex): Address {
  return `0x${value.slice(2).toLowerCase().padStart(40, '0').slice(-40)}` as Address
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
