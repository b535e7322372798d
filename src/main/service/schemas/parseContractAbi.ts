import { type AbiFunction, type Hex, toFunctionSelector } from 'viem'
import { InvalidInputError } from '../errors'

export type ParsedContractAbi = {
  /** Names of the callable (state-changing) functions, in ABI order, without duplicates. */
  methods: string[]
  /** Selector(s) of each callable function name (overloads share a name). */
  selectorsByMethod: Map<string, Hex[]>
  /** Name of every function of the ABI by its selector, view and pure ones included (to name a call). */
  namesBySelector: Map<Hex, string>
}

/**
 * Parses a stringified ABI as sent to the dashboard API. Rejects anything that is not a JSON array of
 * ABI entries with a clear message; view and pure functions are not callable methods.
 */
export function parseContractAbi(abiText: string): ParsedContractAbi {
  let abi: unknown
  try {
    abi = JSON.parse(abiText)
  } catch {
    throw new InvalidInputError('abi must be a stringified JSON ABI array (it does not parse as JSON)')
  }
  if (!Array.isArray(abi)) throw new InvalidInputError('abi must be a stringified JSON ABI array')
  const methods: string[] = []
  const selectorsByMethod = new Map<string, Hex[]>()
  const namesBySelector = new Map<Hex, string>()
  for (const [index, entry] of abi.entries()) {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof (entry as { type?: unknown }).type !== 'string'
    ) {
      throw new InvalidInputError(`abi entry ${index} is not an ABI item (an object with a "type")`)
    }
    const item = entry as Partial<AbiFunction> & { type: string; constant?: boolean }
    if (item.type !== 'function') continue
    if (typeof item.name !== 'string' || item.name === '') {
      throw new InvalidInputError(`abi entry ${index} is a function without a name`)
    }
    let selector: Hex | null = null
    try {
      selector = toFunctionSelector({
        ...item,
        inputs: item.inputs ?? [],
        outputs: item.outputs ?? [],
      } as AbiFunction).toLowerCase() as Hex
      if (!namesBySelector.has(selector)) namesBySelector.set(selector, item.name)
    } catch {}
    if (!isCallable(item)) continue
    if (selector === null) throw new InvalidInputError(`abi entry ${index} (${item.name}) has invalid inputs`)
    const selectors = selectorsByMethod.get(item.name)
    if (selectors) selectors.push(selector)
    else {
      selectorsByMethod.set(item.name, [selector])
      methods.push(item.name)
    }
  }
  return { methods, selectorsByMethod, namesBySelector }
}

function isCallable(item: { stateMutability?: string; constant?: boolean }): boolean {
  if (item.stateMutability) return item.stateMutability !== 'view' && item.stateMutability !== 'pure'
  return item.constant !== true
}

/** Checks that every whitelisted method exists among the ABI's callable methods. */
export function assertMethodsInAbi(whitelistedMethods: string[], parsed: ParsedContractAbi): void {
  const unknown = whitelistedMethods.filter((m) => !parsed.selectorsByMethod.has(m))
  if (unknown.length > 0) {
    throw new InvalidInputError(
      `whitelistedMethods contains methods that are not callable functions of the ABI: ${unknown.join(', ')}` +
        (parsed.methods.length
          ? ` (callable: ${parsed.methods.join(', ')})`
          : ' (the ABI has no callable functions)'),
    )
  }
}
