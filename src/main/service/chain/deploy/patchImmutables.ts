import { type Address, type Hex, pad } from 'viem'

export type ImmutableReferences = Readonly<Record<string, readonly { start: number; length: number }[]>>

/**
 * Writes immutable values into runtime code at the offsets solc reports (`immutableReferences`), as
 * the constructor would. Values are left-padded to 32 bytes.
 */
export function patchImmutables(
  code: Hex,
  references: ImmutableReferences,
  values: Record<string, Hex | Address>,
): Hex {
  let hex = code.slice(2)
  for (const [name, refs] of Object.entries(references)) {
    const value = values[name]
    if (value === undefined) throw new Error(`No value for immutable ${name}`)
    const word = pad(value as Hex, { size: 32 }).slice(2)
    for (const { start, length } of refs) {
      if (length !== 32) throw new Error(`Immutable ${name} has length ${length}`)
      hex = hex.slice(0, start * 2) + word + hex.slice((start + length) * 2)
    }
  }
  for (const name of Object.keys(values)) {
    if (!(name in references)) throw new Error(`Unknown immutable ${name}`)
  }
  return `0x${hex}`
}

/**
 * Offsets of immutables in hardhat artifacts that carry no `immutableReferences` (the EntryPoint and
 * SimpleAccountFactory artifacts of `@account-abstraction/contracts`): solc leaves `PUSH32 0x00…00` there,
 * which it never emits for a constant. Returns the byte offsets of the 32-byte values.
 */
export function findZeroPush32Offsets(code: Hex): number[] {
  const bytes = Buffer.from(code.slice(2), 'hex')
  const offsets: number[] = []
  let i = 0
  while (i < bytes.length) {
    const op = bytes[i] ?? 0
    if (op === 0x7f && bytes.subarray(i + 1, i + 33).every((b) => b === 0)) offsets.push(i + 1)
    // Skip push data so bytes inside it are not read as opcodes.
    i += op >= 0x60 && op <= 0x7f ? op - 0x5f + 1 : 1
  }
  return offsets
}

/** Fills every `PUSH32 0` placeholder of `code` with `value` (for contracts with exactly one immutable value). */
export function fillZeroPush32(code: Hex, value: Hex | Address): Hex {
  const word = pad(value as Hex, { size: 32 }).slice(2)
  let hex = code.slice(2)
  for (const offset of findZeroPush32Offsets(code)) {
    hex = hex.slice(0, offset * 2) + word + hex.slice((offset + 32) * 2)
  }
  return `0x${hex}`
}

/**
 * `code` is `template` with its `PUSH32 0` immutable placeholders filled in (any values): equal length, and equal
 * byte for byte everywhere but in those 32-byte placeholders.
 */
export function matchesWithImmutablesMasked(code: Hex, template: Hex): boolean {
  if (code.length !== template.length) return false
  const actual = code.slice(2).toLowerCase()
  const expected = template.slice(2).toLowerCase()
  let from = 0
  for (const offset of findZeroPush32Offsets(template)) {
    if (actual.slice(from * 2, offset * 2) !== expected.slice(from * 2, offset * 2)) return false
    from = offset + 32
  }
  return actual.slice(from * 2) === expected.slice(from * 2)
}
