import type { Address } from 'viem'
import { ENTRY_POINT_VERSIONS, type EntryPointVersion } from '../../../shared/entryPointVersions'
import type { ChainAddresses } from './types'

/** The EntryPoint versions the chain deploys, each with its own paymasters. */
export { ENTRY_POINT_VERSIONS }
export type EntryPointVersionName = EntryPointVersion

/** A deployed contract: its address and its name in the deployment plan (`chain.missing` / `mismatched`). */
export type NamedContract = { name: string; address: Address }

export type VersionContracts = { entryPoint: NamedContract; verifying: NamedContract; token: NamedContract }

/**
 * One EntryPoint version's contracts: the EntryPoint, its verifying paymaster (gas tanks) and its token paymaster.
 * v0.6's are Biconomy's at their canonical addresses; v0.7's and v0.8's are Opstation's (`contracts/packed/`).
 */
export function getVersionContracts(
  chain: { addresses: ChainAddresses },
  version: EntryPointVersionName,
): VersionContracts {
  const a = chain.addresses
  if (version === '0.6')
    return {
      entryPoint: { name: 'entryPoint', address: a.entryPoint },
      verifying: { name: 'verifyingPaymaster', address: a.verifyingPaymaster },
      token: { name: 'tokenPaymaster', address: a.tokenPaymaster },
    }
  const suffix = version === '0.7' ? 'V07' : 'V08'
  return {
    entryPoint: { name: `entryPoint${suffix}`, address: a[`entryPoint${suffix}`] },
    verifying: { name: `verifyingPaymaster${suffix}`, address: a[`verifyingPaymaster${suffix}`] },
    token: { name: `tokenPaymaster${suffix}`, address: a[`tokenPaymaster${suffix}`] },
  }
}

/** The chain holds these contracts with their expected code (none is missing or mismatched). */
export function holdsContracts(
  chain: { missing: readonly string[]; mismatched: readonly string[] },
  ...contracts: NamedContract[]
): boolean {
  return contracts.every((c) => !chain.missing.includes(c.name) && !chain.mismatched.includes(c.name))
}
