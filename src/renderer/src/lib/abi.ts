import type { Abi, AbiFunction, AbiParameter } from 'viem'

export type ParsedAbi =
  | { ok: true; abi: Abi; callable: AbiFunction[]; methodNames: string[] }
  | { ok: false; error: string }

function isCallable(item: AbiFunction & { constant?: boolean }): boolean {
  if (item.stateMutability) return item.stateMutability !== 'view' && item.stateMutability !== 'pure'
  return item.constant !== true
}

/**
 * Parses a pasted ABI the way the service does (a JSON array of ABI items) and lists the callable
 * (state-changing) methods, which are the ones a dApp can whitelist. Errors are phrased for the form.
 */
export function parseAbiText(text: string): ParsedAbi {
  if (!text.trim()) return { ok: false, error: 'Paste the contract ABI (a JSON array).' }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    return { ok: false, error: `The ABI is not valid JSON: ${(err as Error).message}` }
  }
  if (!Array.isArray(value)) {
    const inner = (value as { abi?: unknown } | null)?.abi
    if (Array.isArray(inner)) value = inner
    else
      return {
        ok: false,
        error: 'The ABI must be a JSON array (or a compiler artifact with an "abi" array).',
      }
  }
  const list = value as unknown[]
  for (const [index, entry] of list.entries()) {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof (entry as { type?: unknown }).type !== 'string'
    ) {
      return { ok: false, error: `ABI entry ${index} is not an ABI item (an object with a "type").` }
    }
    const item = entry as { type: string; name?: unknown }
    if (item.type === 'function' && (typeof item.name !== 'string' || !item.name)) {
      return { ok: false, error: `ABI entry ${index} is a function without a name.` }
    }
  }
  const abi = list as Abi
  const callable = abi.filter((i): i is AbiFunction => i.type === 'function' && isCallable(i as AbiFunction))
  const methodNames = [...new Set(callable.map((f) => f.name))]
  return { ok: true, abi, callable, methodNames }
}

/** `transfer(address to, uint256 amount)` */
export function formatSignature(fn: AbiFunction): string {
  return `${fn.name}(${fn.inputs.map((i) => `${i.type}${i.name ? ` ${i.name}` : ''}`).join(', ')})`
}

/** Turns the text of a typed argument field into the value viem's encoder expects. */
export function parseArgument(param: AbiParameter, text: string): unknown {
  const type = param.type
  const value = text.trim()
  if (type.endsWith(']') || type === 'tuple' || type.startsWith('tuple')) {
    try {
      return JSON.parse(value)
    } catch {
      throw new Error(`${param.name || type}: enter a JSON value for ${type}`)
    }
  }
  if (type.startsWith('uint') || type.startsWith('int')) {
    if (!/^-?(0x[0-9a-fA-F]+|\d+)$/.test(value))
      throw new Error(`${param.name || type}: enter a whole number`)
    return BigInt(value)
  }
  if (type === 'bool') {
    if (value !== 'true' && value !== 'false') throw new Error(`${param.name || type}: enter true or false`)
    return value === 'true'
  }
  if (type === 'address') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value))
      throw new Error(`${param.name || type}: enter an address (0x + 40 hex digits)`)
    return value
  }
  if (type.startsWith('bytes')) {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(value))
      throw new Error(`${param.name || type}: enter 0x-prefixed hex bytes`)
    return value
  }
  return value
}
