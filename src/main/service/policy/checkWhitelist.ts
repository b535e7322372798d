import type { Hex } from 'viem'
import type { SmartContract } from '../../../shared/api/smartContracts'
import { parseContractAbi } from '../schemas/parseContractAbi'
import type { DecodedCallData, InnerCall } from './decodeCallData'
import type { StepOutcome } from './types'

/** Phrase of Biconomy's hosted paymaster for a call to a contract that is not registered (the SDK matches it). */
export const SMART_CONTRACT_DATA_NOT_FOUND = 'Smart contract data not found'

type WhitelistEntry = {
  /** Whitelisted selector → method name. */
  selectors: Map<Hex, string>
  /** Every function of the ABI by selector, to name a call that is not whitelisted. */
  names: Map<Hex, string>
}

const cache = new WeakMap<SmartContract, { key: string; entry: WhitelistEntry }>()

function getWhitelistEntry(contract: SmartContract): WhitelistEntry {
  const key = `${contract.updatedAt}|${contract.whitelistedMethods.join(',')}`
  const cached = cache.get(contract)
  if (cached?.key === key) return cached.entry
  const parsed = parseContractAbi(contract.abi)
  const selectors = new Map<Hex, string>()
  for (const method of contract.whitelistedMethods) {
    for (const selector of parsed.selectorsByMethod.get(method) ?? [])
      selectors.set(selector.toLowerCase() as Hex, method)
  }
  const entry = { selectors, names: parsed.namesBySelector }
  cache.set(contract, { key, entry })
  return entry
}

/** The whitelisted selectors of a registered contract (method names matched through its ABI). */
export function getWhitelistedSelectors(contract: SmartContract): Map<Hex, string> {
  return getWhitelistEntry(contract).selectors
}

/**
 * Contract whitelist (Biconomy's rule): with no registered contracts everything is sponsored; otherwise every
 * inner call must target a registered contract of the dApp and call one of its whitelisted methods. A
 * deploy-only op is a wallet deployment. Calls the decoder does not understand are not sponsored.
 */
export function checkWhitelist(decoded: DecodedCallData, contracts: SmartContract[]): StepOutcome {
  if (contracts.length === 0) {
    return {
      outcome: 'pass',
      detail: 'No smart contracts are registered for this dApp, so every call is sponsored',
    }
  }
  switch (decoded.kind) {
    case 'deployOnly':
      return { outcome: 'pass', detail: 'Wallet deployment: initCode with empty callData' }
    case 'empty':
      return { outcome: 'fail', detail: 'Empty callData on a deployed account: there is no call to sponsor' }
    case 'unknown':
      return { outcome: 'fail', detail: `callData not understood: ${decoded.reason}` }
    case 'calls':
      break
  }
  if (decoded.calls.length === 0) {
    return {
      outcome: 'fail',
      detail: `${decoded.accountFunction} with no calls: there is no call to sponsor`,
    }
  }
  const byAddress = new Map(contracts.map((c) => [c.address.toLowerCase(), c]))
  const described: string[] = []
  for (const [index, call] of decoded.calls.entries()) {
    const verdict = checkCall(call, byAddress)
    const label = decoded.calls.length > 1 ? `call ${index}: ` : ''
    if (!verdict.ok) return { outcome: 'fail', detail: `${label}${verdict.detail}` }
    described.push(`${label}${verdict.detail}`)
  }
  return { outcome: 'pass', detail: described.join('; ') }
}

function checkCall(call: InnerCall, byAddress: Map<string, SmartContract>): { ok: boolean; detail: string } {
  const contract = byAddress.get(call.to.toLowerCase())
  if (!contract) {
    return {
      ok: false,
      detail: `${SMART_CONTRACT_DATA_NOT_FOUND}: ${call.to} is not a registered smart contract of this dApp`,
    }
  }
  if (call.selector === null) {
    const what = call.data === '0x' ? `a plain transfer of ${call.value} wei` : 'data shorter than a selector'
    return { ok: false, detail: `${contract.name} (${call.to}) receives ${what}, not a whitelisted method` }
  }
  const { selectors, names } = getWhitelistEntry(contract)
  const method = selectors.get(call.selector)
  if (!method) {
    const allowed = contract.whitelistedMethods.length ? contract.whitelistedMethods.join(', ') : 'none'
    const name = names.get(call.selector)
    const what = name ? `${name} (${call.selector})` : `selector ${call.selector} (not in its ABI)`
    return {
      ok: false,
      detail: `${what} is not a whitelisted method of ${contract.name} at ${call.to} (whitelisted: ${allowed})`,
    }
  }
  return { ok: true, detail: `${contract.name}.${method} (${call.to}) is whitelisted` }
}
