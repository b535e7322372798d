import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  type StructLog,
  traceFromStructLogs,
} from '../../../src/main/service/bundler/validation/traceFromStructLogs'
import { createValidationFrame } from '../../../src/main/service/bundler/validation/validationTracer'
import type { CallFrame } from '../../../src/main/service/entryPoint/estimation/callFrame'

const ENTRY_POINT = '0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789'
const ACCOUNT = '0x1111111111111111111111111111111111111111'
const IMPLEMENTATION = '0x2222222222222222222222222222222222222222'
const REGISTRY = '0x4444444444444444444444444444444444444444'
const SELECTOR = '0x3a871cdd'
const SLOT_A = `0x${'0'.repeat(63)}a`
const SLOT_B = `0x${'0'.repeat(63)}b`
const WORD_1 = `0x${'0'.repeat(63)}1`
const WORD_2 = `0x${'0'.repeat(63)}2`

function step(op: string, depth: number, extra: Partial<StructLog> = {}): StructLog {
  return { op, depth, gas: 100_000, ...extra }
}

function call(type: string, to: Address, parts: Partial<CallFrame> = {}): CallFrame {
  return { type, from: ENTRY_POINT, to, gas: '0x0', gasUsed: '0x0', input: `${SELECTOR}00`, ...parts }
}

/** EntryPoint (depth 1) calls the account (depth 2); `inner` are the account's steps, `calls` its call frames. */
function validation(inner: StructLog[], calls: CallFrame[] = [], account: Partial<CallFrame> = {}) {
  const { logs, root } = validationLogs(inner, calls, account)
  return traceFromStructLogs(logs, root, '0xdead')
}

/** As `validation`, from a struct log with stacks. */
function validationWithStack(inner: StructLog[], calls: CallFrame[] = []) {
  const { logs, root } = validationLogs(inner, calls, {})
  return traceFromStructLogs(logs, root, '0xdead', { withStack: true })
}

function validationLogs(inner: StructLog[], calls: CallFrame[], account: Partial<CallFrame>) {
  const logs = [step('PUSH1', 1), step('CALL', 1), ...inner, step('RETURN', 2), step('POP', 1)]
  const root = call('CALL', ENTRY_POINT, { calls: [call('CALL', ACCOUNT, { calls, ...account })] })
  return { logs, root }
}

describe('traceFromStructLogs (native traces for the ERC-7562 checks)', () => {
  it('makes one frame per EntryPoint call, with the target, selector and the restricted opcodes it ran', () => {
    const trace = validation([step('TIMESTAMP', 2), step('DIFFICULTY', 2), step('ADD', 2)])
    expect(trace).toEqual({
      output: '0xdead',
      probesCodeSize: false,
      frames: [{ ...createValidationFrame(ACCOUNT, SELECTOR), opcodes: { TIMESTAMP: 1, DIFFICULTY: 1 } }],
    })
  })

  it('counts GAS only when the next opcode is not a call', () => {
    const precompile = call('STATICCALL', '0x0000000000000000000000000000000000000001')
    const trace = validation(
      [step('GAS', 2), step('STATICCALL', 2), step('GAS', 2), step('POP', 2)],
      [precompile],
    )
    expect('frames' in trace && trace.frames[0]?.opcodes).toEqual({ GAS: 1 })
  })

  it('attributes storage to the contract whose storage it is, through a DELEGATECALL', () => {
    const logs = [
      step('DELEGATECALL', 2),
      step('SLOAD', 3, { storage: { [SLOT_A]: WORD_1 } }),
      step('RETURN', 3),
      step('SSTORE', 2, { storage: { [SLOT_A]: WORD_1, [SLOT_B]: WORD_2 } }),
    ]
    const trace = validation(logs, [call('DELEGATECALL', IMPLEMENTATION, { from: ACCOUNT })])
    expect('frames' in trace && trace.frames[0]?.access).toEqual({
      [ACCOUNT]: { reads: { [SLOT_A]: true }, writes: { [SLOT_B]: true } },
    })
    expect('frames' in trace && trace.frames[0]?.calls).toEqual([
      { opcode: 'DELEGATECALL', from: ACCOUNT, to: IMPLEMENTATION, selector: SELECTOR, withValue: false },
    ])
  })

  it('counts a slot read again as a read of every slot the contract touched (a superset, never less)', () => {
    const logs = [
      step('CALL', 2),
      step('SLOAD', 3, { storage: { [SLOT_A]: WORD_1 } }),
      step('SLOAD', 3, { storage: { [SLOT_A]: WORD_1, [SLOT_B]: WORD_2 } }),
      step('SLOAD', 3, { storage: { [SLOT_A]: WORD_1, [SLOT_B]: WORD_2 } }),
      step('RETURN', 3),
    ]
    const trace = validation(logs, [call('CALL', REGISTRY, { value: '0x0' })])
    expect('frames' in trace && trace.frames[0]?.access[REGISTRY]).toEqual({
      reads: { [SLOT_A]: true, [SLOT_B]: true },
      writes: {},
    })
  })

  it('flags a call with value, an SSTORE with less than 2300 gas and an out-of-gas call below the frame', () => {
    const logs = [
      step('CALL', 2),
      step('SSTORE', 3, { gas: 2299, storage: { [SLOT_A]: WORD_1 } }),
      step('STOP', 3),
    ]
    const trace = validation(logs, [
      call('CALL', REGISTRY, { from: ACCOUNT, value: '0x5', error: 'out of gas' }),
    ])
    const frame = 'frames' in trace ? trace.frames[0] : undefined
    expect(frame?.outOfGas).toBe(true)
    expect(frame?.calls).toEqual([
      { opcode: 'CALL', from: ACCOUNT, to: REGISTRY, selector: SELECTOR, withValue: true },
    ])
  })

  it('leaves to the JavaScript tracer what only the stack or the node state can tell', () => {
    expect(validation([step('TLOAD', 2)])).toEqual({ gap: 'TLOAD in validation' })
    expect(validation([step('EXTCODEHASH', 2)])).toEqual({ gap: 'EXTCODEHASH in validation' })
    // EXTCODESIZE not followed by ISZERO may read the EntryPoint's code size (OP-054).
    expect(validation([step('EXTCODESIZE', 2), step('PUSH1', 2)])).toEqual({
      gap: 'EXTCODESIZE in validation',
    })
    // A call that runs no code: the target has none, or the call failed before it ran.
    expect(validation([step('CALL', 2), step('POP', 2)], [call('CALL', REGISTRY)])).toEqual({
      gap: `CALL to ${REGISTRY} ran no code`,
    })
  })

  it('refuses a call tree that does not match the struct log', () => {
    expect(validation([step('CALL', 2), step('STOP', 3)], [])).toEqual({
      gap: 'call tree and struct log differ',
    })
    expect(validation([step('CALL', 2), step('STOP', 3)], [call('STATICCALL', REGISTRY)])).toEqual({
      gap: 'call tree and struct log differ',
    })
    expect(validation([], [call('CALL', REGISTRY)])).toEqual({ gap: 'call tree and struct log differ' })
    expect(validation([step('STOP', 4)])).toEqual({ gap: 'struct log depth does not follow the calls' })
  })

  it("marks EXTCODESIZE ISZERO in an entity's frame, whose target only the node's state can check for code", () => {
    const trace = validation([step('EXTCODESIZE', 2), step('ISZERO', 2)])
    expect(trace).toMatchObject({ probesCodeSize: true, frames: [{ entryPointCode: [], codeless: {} }] })
    expect(validation([step('ADD', 2)])).toMatchObject({ probesCodeSize: false })
  })

  it("passes over the call tree's frame of a SELFDESTRUCT, counting the opcode", () => {
    const logs = [step('SELFDESTRUCT', 2)]
    const trace = validation(logs, [call('SELFDESTRUCT', REGISTRY, { from: ACCOUNT })])
    expect('frames' in trace && trace.frames[0]?.opcodes).toEqual({ SELFDESTRUCT: 1 })
    expect('frames' in trace && trace.frames[0]?.calls).toEqual([])
  })

  it('records the contracts a frame creates, with their creator, from the call tree', () => {
    const logs = [step('CREATE2', 2), step('STOP', 3), step('CREATE', 2), step('RETURN', 3)]
    const trace = validation(logs, [
      call('CREATE2', ACCOUNT, { from: IMPLEMENTATION }),
      call('CREATE', REGISTRY, { from: ACCOUNT }),
    ])
    expect('frames' in trace && trace.frames[0]?.creates).toEqual([
      { opcode: 'CREATE2', from: IMPLEMENTATION, to: ACCOUNT },
      { opcode: 'CREATE', from: ACCOUNT, to: REGISTRY },
    ])
    expect('frames' in trace && trace.frames[0]?.opcodes).toEqual({})
  })
})

describe('traceFromStructLogs with stacks (what the struct log without them leaves to the JavaScript tracer)', () => {
  const HASH = `0x${'ab'.repeat(32)}` as const

  it('takes each slot from the stack, so a slot read again is that slot only, and records transient storage', () => {
    const logs = [
      step('CALL', 2),
      step('SLOAD', 3, { stack: ['0xa'], storage: { [SLOT_A]: WORD_1 } }),
      step('SLOAD', 3, { stack: ['0xb'], storage: { [SLOT_A]: WORD_1, [SLOT_B]: WORD_2 } }),
      step('SLOAD', 3, { stack: ['0x7', '0xb'], storage: { [SLOT_A]: WORD_1, [SLOT_B]: WORD_2 } }),
      step('TSTORE', 3, { stack: ['0x1', '0xa'] }),
      step('TLOAD', 3, { stack: ['0xb'] }),
      step('RETURN', 3),
    ]
    const trace = validationWithStack(logs, [call('CALL', REGISTRY)])
    expect('frames' in trace && trace.frames[0]?.access[REGISTRY]).toEqual({
      reads: { [SLOT_A]: true, [SLOT_B]: true },
      writes: { [SLOT_A]: true },
    })
  })

  it('keeps the hash of each KECCAK256 of 32 to 128 bytes, from the stack of the step after it', () => {
    const logs = [
      step('KECCAK256', 2, { stack: ['0x40', '0x0'] }),
      step('SLOAD', 2, { stack: [HASH] }),
      step('KECCAK256', 2, { stack: ['0x20', '0x0'] }),
      step('POP', 2, { stack: ['0x5'] }),
      step('KECCAK256', 2, { stack: ['0x81', '0x0'] }),
      step('POP', 2, { stack: ['0x6'] }),
    ]
    const trace = validationWithStack(logs)
    expect(trace).toMatchObject({ keccakHashes: [HASH, `0x${'0'.repeat(63)}5`] })
  })

  it("lists the targets of EXTCODE* and of calls that ran no code for the node's state, and the EntryPoint's code read", () => {
    const logs = [
      step('EXTCODEHASH', 2, { stack: [REGISTRY] }),
      step('EXTCODESIZE', 2, { stack: [ENTRY_POINT] }),
      step('ISZERO', 2),
      step('EXTCODESIZE', 2, { stack: [ENTRY_POINT] }),
      step('PUSH1', 2),
      step('EXTCODECOPY', 2, { stack: ['0x20', '0x0', '0x0', ENTRY_POINT] }),
      step('CALL', 2),
      step('POP', 2),
    ]
    const trace = validationWithStack(logs, [call('CALL', IMPLEMENTATION)])
    if ('gap' in trace) throw new Error(trace.gap)
    expect(trace.codeProbes.map(({ target, opcode }) => [opcode, target])).toEqual([
      ['EXTCODEHASH', REGISTRY],
      ['EXTCODESIZE', ENTRY_POINT],
      ['EXTCODESIZE', ENTRY_POINT],
      ['EXTCODECOPY', ENTRY_POINT],
      ['CALL', IMPLEMENTATION],
    ])
    expect(trace.codeProbes[0]?.frame).toBe(trace.frames[0])
    expect(trace.frames[0]?.entryPointCode).toEqual(['EXTCODESIZE', 'EXTCODECOPY'])
  })

  it('has a gap where a step it reads has no stack', () => {
    expect(validationWithStack([step('TLOAD', 2)])).toEqual({ gap: 'struct log without the stack of TLOAD' })
    expect(validationWithStack([step('KECCAK256', 2, { stack: ['0x40', '0x0'] }), step('POP', 2)])).toEqual({
      gap: 'struct log without the hash of a KECCAK256',
    })
  })
})
