import type { Abi, Address } from 'viem'
import { ENTRY_POINT_VERSIONS, type EntryPointVersion } from '../../../shared/entryPointVersions'
import { packedTokenPaymasterAbi, packedVerifyingPaymasterAbi } from './abis/packedPaymasters'
import { tokenPaymasterAbi } from './abis/tokenPaymaster'
import { verifyingPaymasterAbi } from './abis/verifyingPaymaster'
import type { ChainAddresses } from './types'

/** A deployed contract: its address and its name in the deployment plan (`chain.missing` / `mismatched`). */
export type NamedContract = { name: string; address: Address }

export type VersionContracts = { entryPoint: NamedContract; verifying: NamedContract; token: NamedContract }

/** The chain's addresses that name one contract. */
type ContractKey = {
  [K in keyof ChainAddresses]: ChainAddresses[K] extends Address ? K : never
}[keyof ChainAddresses]

/** What the chain deploys for one EntryPoint version: the names (keys of the chain's addresses) and paymaster ABIs. */
export type VersionContractTable = {
  entryPoint: ContractKey
  verifying: ContractKey
  token: ContractKey
  verifyingAbi: Abi
  tokenAbi: Abi
  /** The verifying paymaster logs `GasTankDeposited(paymasterId, amount)` (Opstation's do; Biconomy's v0.6 does not). */
  logsTankDeposits: boolean
}

/**
 * Each EntryPoint version's contracts, as plain data (chain/ sits below entryPoint/, whose modules read this table
 * as `module.contracts`): the EntryPoint, its verifying paymaster (gas tanks) and its token paymaster. v0.6's are
 * Biconomy's at their canonical addresses; v0.7's, v0.8's and v0.9's are Opstation's (`contracts/packed/`).
 */
export const VERSION_CONTRACTS: Record<EntryPointVersion, VersionContractTable> = {
  '0.6': {
    entryPoint: 'entryPoint',
    verifying: 'verifyingPaymaster',
    token: 'tokenPaymaster',
    verifyingAbi: verifyingPaymasterAbi as Abi,
    tokenAbi: tokenPaymasterAbi as Abi,
    logsTankDeposits: false,
  },
  '0.7': {
    entryPoint: 'entryPointV07',
    verifying: 'verifyingPaymasterV07',
    token: 'tokenPaymasterV07',
    verifyingAbi: packedVerifyingPaymasterAbi as Abi,
    tokenAbi: packedTokenPaymasterAbi as Abi,
    logsTankDeposits: true,
  },
  '0.8': {
    entryPoint: 'entryPointV08',
    verifying: 'verifyingPaymasterV08',
    token: 'tokenPaymasterV08',
    verifyingAbi: packedVerifyingPaymasterAbi as Abi,
    tokenAbi: packedTokenPaymasterAbi as Abi,
    logsTankDeposits: true,
  },
  '0.9': {
    entryPoint: 'entryPointV09',
    verifying: 'verifyingPaymasterV09',
    token: 'tokenPaymasterV09',
    verifyingAbi: packedVerifyingPaymasterAbi as Abi,
    tokenAbi: packedTokenPaymasterAbi as Abi,
    logsTankDeposits: true,
  },
}

/** The versions in the order the service lists them (oldest first). */
export { ENTRY_POINT_VERSIONS }

/** One EntryPoint version's contracts on this chain: the EntryPoint, its verifying paymaster and its token paymaster. */
export function getVersionContracts(
  chain: { addresses: ChainAddresses },
  version: EntryPointVersion,
): VersionContracts {
  const table = VERSION_CONTRACTS[version]
  const named = (name: ContractKey): NamedContract => ({ name, address: chain.addresses[name] })
  return { entryPoint: named(table.entryPoint), verifying: named(table.verifying), token: named(table.token) }
}

/** The chain holds these contracts with their expected code (none is missing or mismatched). */
export function holdsContracts(
  chain: { missing: readonly string[]; mismatched: readonly string[] },
  ...contracts: NamedContract[]
): boolean {
  return contracts.every((c) => !chain.missing.includes(c.name) && !chain.mismatched.includes(c.name))
}
