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
export function inEveryFrame<Row extends object>(
  rows: readonly Row[],
): (Row & { prefix: string; frame: string })[] {
  return rows.flatMap((row) => ENTRY_FRAMES.map(({ prefix, label }) => ({ ...row, prefix, frame: label })))
}
