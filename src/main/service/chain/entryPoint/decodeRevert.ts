import { type Abi, decodeErrorResult, type Hex } from 'viem'

/** Finds the revert data in a viem error (walks the `cause` chain; RPC errors carry it as `data`). */
export function getRevertData(err: unknown): Hex | null {
  let current: unknown = err
  for (let depth = 0; current && depth < 10; depth++) {
    const data = (current as { data?: unknown }).data
    if (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data)) return data as Hex
    if (data && typeof data === 'object') {
      const inner = (data as { data?: unknown }).data
      if (typeof inner === 'string' && /^0x[0-9a-fA-F]*$/.test(inner)) return inner as Hex
    }
    current = (current as { cause?: unknown }).cause
  }
  return null
}

/** What each Solidity `Panic(uint256)` code means. */
export const panicReasons: Record<number, string> = {
  1: 'assert failed',
  17: 'arithmetic overflow or underflow',
  18: 'division by zero',
  33: 'invalid enum value',
  34: 'invalid storage byte array',
  49: 'pop on empty array',
  50: 'array index out of bounds',
  65: 'out of memory',
  81: 'call to an invalid internal function',
}

/**
 * Decodes revert bytes to text: `Error(string)` → the string, `Panic(uint256)` → `Panic: <reason>`, a custom error
 * of `abi` → `Name(arg, ...)`. Returns null for empty or unknown data.
 */
export function decodeRevertReason(data: Hex | null | undefined, abi: Abi = []): string | null {
  if (!data || data === '0x' || data.length < 10) return null
  try {
    const decoded = decodeErrorResult({ abi, data })
    if (decoded.errorName === 'Error') return String(decoded.args?.[0] ?? '')
    if (decoded.errorName === 'Panic') {
      const code = Number(decoded.args?.[0] ?? 0)
      return `Panic: ${panicReasons[code] ?? `code 0x${code.toString(16)}`}`
    }
    const args = (decoded.args ?? []).map((a) => (typeof a === 'bigint' ? a.toString() : JSON.stringify(a)))
    return `${decoded.errorName}(${args.join(', ')})`
  } catch {
    return null
  }
}
