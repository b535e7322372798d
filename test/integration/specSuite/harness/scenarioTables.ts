import type { SpecVersion } from './specSuite'

/**
 * How the suite reaches the code under test in an entity's validation: its own code, a helper it calls ("CALL:>"),
 * or a helper it delegate-calls ("DELEGATECALL:>", running in the entity's storage). The suite runs most opcode and
 * storage scenarios through all three.
 */
export const ENTRY_FRAMES = [
  { prefix: '', label: 'in its own code' },
  { prefix: 'CALL:>', label: 'through a helper it calls' },
  { prefix: 'DELEGATECALL:>', label: 'through a helper it delegate-calls' },
] as const

export type EntryFrame = (typeof ENTRY_FRAMES)[number]

/**
 * The EntryPoint versions a scenario file runs on: v0.8 (the suite's) through every entry frame, and its v0.7 twin
 * through the entity's own code only. How a frame is reached is the tracer's business, the same on both versions,
 * and each scenario costs a validation trace (a quarter of a second when it is rejected).
 */
export const SPEC_RUNS: { version: SpecVersion; frames: readonly EntryFrame[] }[] = [
  { version: '0.8', frames: ENTRY_FRAMES },
  { version: '0.7', frames: ENTRY_FRAMES.slice(0, 1) },
]

/** The opcodes the suite bans in validation (test_op_banning.py's banned_opcodes), each with its ERC-7562 rule. */
export const BANNED_OPCODES: { opcode: string; rule: string }[] = [
  { opcode: 'GAS', rule: 'OP-012' },
  { opcode: 'NUMBER', rule: 'OP-011' },
  { opcode: 'TIMESTAMP', rule: 'OP-011' },
  { opcode: 'COINBASE', rule: 'OP-011' },
  { opcode: 'DIFFICULTY', rule: 'OP-011' },
  { opcode: 'BASEFEE', rule: 'OP-011' },
  { opcode: 'GASLIMIT', rule: 'OP-011' },
  { opcode: 'GASPRICE', rule: 'OP-011' },
  { opcode: 'SELFBALANCE', rule: 'OP-080' },
  { opcode: 'BALANCE', rule: 'OP-080' },
  { opcode: 'ORIGIN', rule: 'OP-011' },
  { opcode: 'BLOCKHASH', rule: 'OP-011' },
  { opcode: 'CREATE', rule: 'OP-011' },
  { opcode: 'CREATE2', rule: 'OP-031' },
  { opcode: 'SELFDESTRUCT', rule: 'OP-011' },
  { opcode: 'BLOBHASH', rule: 'OP-011' },
  { opcode: 'BLOBBASEFEE', rule: 'OP-011' },
]

/** Opcodes a staked entity may use (OP-080). */
export const STAKED_ONLY_OPCODES = [{ opcode: 'BALANCE' }, { opcode: 'SELFBALANCE' }]

/** Each row once per entry frame, with the frame's `prefix` (for the rule) and `frame` (for the test name). */
export function inFrames<Row extends object>(
  rows: readonly Row[],
  frames: readonly EntryFrame[],
): (Row & { prefix: string; frame: string })[] {
  return rows.flatMap((row) => frames.map(({ prefix, label }) => ({ ...row, prefix, frame: label })))
}

/**
 * Rows for it.each / describe.each with the title each is run under ('%s'): vitest quotes the strings a `$field`
 * title interpolates.
 */
export function titled<Row>(rows: readonly Row[], title: (row: Row) => string): [string, Row][] {
  return rows.map((row) => [title(row), row])
}
