import type { DappPolicies, SpendingLimit } from '../../../shared/api/dapps'
import type { SmartContract } from '../../../shared/api/smartContracts'
import type { Webhook } from '../../../shared/api/webhooks'
import { parseContractAbi } from '../schemas/parseContractAbi'
import type { TokenPrice } from '../store/schema'
import type {
  SetupContract,
  SetupLimit,
  SetupPolicies,
  SetupTokenPrice,
  SetupWebhook,
} from './setupFileSchema'

/**
 * The pure half of applying a setup: given what the service holds and what the file says, what has to change
 * (nothing, when they agree: that is what makes applying twice a no-op). applySetup.ts carries the plans out
 * through the repositories and the chain module.
 */

export type ContractPlan =
  | { kind: 'create'; whitelistedMethods: string[] }
  /** The name or the ABI differ: the contract is registered again (delete, then create). */
  | { kind: 'replace'; whitelistedMethods: string[] }
  | { kind: 'whitelist'; whitelistedMethods: string[] }

export function planContractChange(
  current: SmartContract | undefined,
  desired: SetupContract,
): ContractPlan | null {
  if (!current) return { kind: 'create', whitelistedMethods: unique(desired.whitelistedMethods ?? []) }
  if (current.name !== desired.name || !isSameAbi(current.abi, desired.abi)) {
    // Methods kept from before must still be callable functions of the new ABI.
    const callable = new Set(parseContractAbi(desired.abi).methods)
    const whitelistedMethods =
      desired.whitelistedMethods ?? current.whitelistedMethods.filter((m) => callable.has(m))
    return { kind: 'replace', whitelistedMethods: unique(whitelistedMethods) }
  }
  if (desired.whitelistedMethods === undefined) return null
  return isSameSet(current.whitelistedMethods, desired.whitelistedMethods)
    ? null
    : { kind: 'whitelist', whitelistedMethods: unique(desired.whitelistedMethods) }
}

export type WebhookPlan =
  | { kind: 'create'; requestType: 'GET' | 'POST'; active: boolean }
  /** The request type differs (the repositories cannot change it): the webhook is registered again. */
  | { kind: 'replace'; requestType: 'GET' | 'POST'; active: boolean }
  | { kind: 'active'; active: boolean }

export function planWebhookChange(current: Webhook | undefined, desired: SetupWebhook): WebhookPlan | null {
  if (!current)
    return { kind: 'create', requestType: desired.requestType ?? 'POST', active: desired.active ?? true }
  const requestType = desired.requestType ?? current.requestType
  const active = desired.active ?? current.active
  if (requestType !== current.requestType) return { kind: 'replace', requestType, active }
  return active === current.active ? null : { kind: 'active', active }
}

/**
 * The dApp's policies after the file's: a field left out keeps its value; `limits` replaces the list. A limit without
 * an id keeps the id of an equal limit at its place, so a file without ids applies twice without a change. Returns
 * null when nothing differs.
 */
export function planPoliciesChange(
  current: DappPolicies,
  desired: SetupPolicies,
  newId: () => string,
): DappPolicies | null {
  const limits = desired.limits
    ? desired.limits.map((limit, index): SpendingLimit => {
        const here = current.limits[index]
        const id = limit.id ?? (here && isSameLimit(here, limit) ? here.id : newId())
        return { ...toSpendingLimit(limit), id }
      })
    : current.limits
  const next: DappPolicies = {
    limits,
    validAfter: desired.validAfter === undefined ? current.validAfter : desired.validAfter,
    validUntil: desired.validUntil === undefined ? current.validUntil : desired.validUntil,
    blockWindow: desired.blockWindow === undefined ? current.blockWindow : desired.blockWindow,
    premiumPercentage: desired.premiumPercentage ?? current.premiumPercentage,
  }
  const same =
    next.validAfter === current.validAfter &&
    next.validUntil === current.validUntil &&
    isSameBlockWindow(next.blockWindow, current.blockWindow) &&
    next.premiumPercentage === current.premiumPercentage &&
    next.limits.length === current.limits.length &&
    next.limits.every((limit, i) => {
      const was = current.limits[i]
      return was !== undefined && was.id === limit.id && isSameLimit(was, limit)
    })
  return same ? null : next
}

function isSameBlockWindow(a: DappPolicies['blockWindow'], b: DappPolicies['blockWindow']): boolean {
  if (a === null || b === null) return a === b
  return (
    a.validForBlocks === b.validForBlocks &&
    a.validAfterBlock === b.validAfterBlock &&
    a.validUntilBlock === b.validUntilBlock
  )
}

/** What the policies route refuses too: a window that ends before it starts. */
export function checkPolicies(policies: DappPolicies): string | null {
  const { validAfter, validUntil } = policies
  if (validAfter !== null && validUntil !== null && validAfter >= validUntil)
    return `validAfter (${validAfter}) must be before validUntil (${validUntil})`
  return null
}

/** How to bring a balance (a gas tank's) to the target: the difference deposited or withdrawn; null when equal. */
export function planBalanceChange(
  current: bigint,
  target: bigint,
): { action: 'deposit' | 'withdraw'; wei: bigint } | null {
  if (current === target) return null
  return current < target
    ? { action: 'deposit', wei: target - current }
    : { action: 'withdraw', wei: current - target }
}

/** Whether a token's price has to be written: the price differs as a number, or the file gives another logo. */
export function planTokenPriceChange(current: TokenPrice | undefined, desired: SetupTokenPrice): boolean {
  if (!current) return true
  if (!isSameDecimal(current.usdPrice, desired.usdPrice)) return true
  return desired.logoUrl !== undefined && desired.logoUrl !== current.logoUrl
}

/** Two ABIs are the same when they are the same JSON (spacing and key order of the text aside). */
export function isSameAbi(a: string, b: string): boolean {
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b))
  } catch {
    return a === b
  }
}

/** `"2000"` and `"2000.0"` are one price. */
export function isSameDecimal(a: string, b: string): boolean {
  return normalizeDecimal(a) === normalizeDecimal(b)
}

function normalizeDecimal(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.')
  const trimmedFraction = fraction.replace(/0+$/, '')
  const trimmedWhole = whole.replace(/^0+(?=\d)/, '')
  return trimmedFraction ? `${trimmedWhole}.${trimmedFraction}` : trimmedWhole
}

function toSpendingLimit(limit: SetupLimit): Omit<SpendingLimit, 'id'> {
  return {
    type: limit.type,
    thresholdType: limit.thresholdType,
    threshold: limit.threshold,
    cycleDuration: { value: limit.cycleDuration.value, unit: limit.cycleDuration.unit },
    active: limit.active,
  }
}

function isSameLimit(a: Omit<SpendingLimit, 'id'>, b: SetupLimit | Omit<SpendingLimit, 'id'>): boolean {
  return (
    a.type === b.type &&
    a.thresholdType === b.thresholdType &&
    BigInt(a.threshold) === BigInt(b.threshold) &&
    a.cycleDuration.value === b.cycleDuration.value &&
    a.cycleDuration.unit === b.cycleDuration.unit &&
    a.active === b.active
  )
}

function isSameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a)
  const right = new Set(b)
  return left.size === right.size && [...left].every((x) => right.has(x))
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) =>
      x < y ? -1 : x > y ? 1 : 0,
    )
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}
