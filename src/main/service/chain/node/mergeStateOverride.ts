import type { Address, RpcStateOverride } from 'viem'

type AccountOverride = NonNullable<RpcStateOverride[Address]>

/**
 * The state override with `fields` merged into `address`'s entry, its key matched case-insensitively (a client's
 * override may spell it in any case). `fields` win over what the entry has, or with `keepExisting` the entry's own
 * values win (a client's balance override stays as given).
 */
export function mergeStateOverride(
  stateOverride: RpcStateOverride | undefined,
  address: Address,
  fields: AccountOverride,
  { keepExisting = false }: { keepExisting?: boolean } = {},
): RpcStateOverride {
  const key = Object.keys(stateOverride ?? {}).find((a) => a.toLowerCase() === address.toLowerCase())
  const rest = { ...(stateOverride ?? {}) }
  const existing = key ? rest[key as Address] : undefined
  if (key) delete rest[key as Address]
  return { ...rest, [address]: keepExisting ? { ...fields, ...existing } : { ...existing, ...fields } }
}
