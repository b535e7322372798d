import { describe, expect, it } from 'vitest'
import { readStructLogBody } from '../../../src/main/service/bundler/validation/readStructLogBody'

const SLOT = `0x${'0'.repeat(63)}a`
const VALUE = `0x${'0'.repeat(63)}1`

/** A response as anvil writes it: every field of every step, in geth's order. */
const response = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  result: {
    failed: true,
    gas: 90242,
    returnValue: '0xe0cff05f',
    structLogs: [
      { pc: 0, op: 'PUSH1', gas: 29999000, gasCost: 3, depth: 1, refund: 0 },
      { pc: 2, op: 'SLOAD', gas: 29998997, gasCost: 2100, depth: 1, storage: { [SLOT]: VALUE }, refund: 0 },
      { pc: 3, op: 'CALL', gas: 29996897, gasCost: 100, depth: 1, refund: 0 },
      { pc: 0, op: 'SSTORE', gas: 2299, gasCost: 2900, depth: 2, storage: { [SLOT]: VALUE }, refund: 0 },
      { pc: 1, op: 'REVERT', gas: 100, gasCost: 0, depth: 2, error: 'execution reverted', refund: 0 },
    ],
  },
})

describe('readStructLogBody', () => {
  it('keeps op and depth of every step, the gas left at SSTORE and the storage of SLOAD/SSTORE', () => {
    expect(readStructLogBody(response)).toEqual({
      result: {
        structLogs: [
          { op: 'PUSH1', depth: 1 },
          { op: 'SLOAD', depth: 1, storage: { [SLOT]: VALUE } },
          { op: 'CALL', depth: 1 },
          { op: 'SSTORE', depth: 2, gas: 2299, storage: { [SLOT]: VALUE } },
          { op: 'REVERT', depth: 2 },
        ],
      },
    })
  })

  it('passes an error response through as JSON', () => {
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'out of gas' } }
    expect(readStructLogBody(JSON.stringify(error))).toEqual(error)
  })

  it('throws on a step it cannot read rather than guess', () => {
    expect(() => readStructLogBody('{"result":{"structLogs":[{"pc":0,"op":"PUSH1","gas":1}]}}')).toThrow(
      /unreadable struct log step/,
    )
  })

  it('keeps the stack of the steps whose operands the checks read, and of the step after a KECCAK256', () => {
    const withStacks = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      result: {
        structLogs: [
          { pc: 0, op: 'PUSH1', gas: 9, gasCost: 3, depth: 1, stack: ['0x1'], refund: 0 },
          { pc: 2, op: 'KECCAK256', gas: 6, gasCost: 36, depth: 1, stack: ['0x40', '0x0'], refund: 0 },
          { pc: 3, op: 'DUP1', gas: 3, gasCost: 3, depth: 1, stack: [SLOT], refund: 0 },
          {
            pc: 4,
            op: 'SLOAD',
            gas: 2,
            gasCost: 100,
            depth: 1,
            stack: [SLOT],
            storage: { [SLOT]: VALUE },
            refund: 0,
          },
          { pc: 5, op: 'POP', gas: 1, gasCost: 2, depth: 1, stack: [VALUE], refund: 0 },
        ],
      },
    })
    expect(readStructLogBody(withStacks)).toEqual({
      result: {
        structLogs: [
          { op: 'PUSH1', depth: 1 },
          { op: 'KECCAK256', depth: 1, stack: ['0x40', '0x0'] },
          { op: 'DUP1', depth: 1, stack: [SLOT] },
          { op: 'SLOAD', depth: 1, stack: [SLOT], storage: { [SLOT]: VALUE } },
          { op: 'POP', depth: 1 },
        ],
      },
    })
  })
})
