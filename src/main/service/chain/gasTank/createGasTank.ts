import type { Address, Hash } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { ENTRY_POINT_VERSIONS, type EntryPointVersion } from '../../../../shared/entryPointVersions'
import type { Chain } from '../types'
import { getVersionContracts, holdsContracts, VERSION_CONTRACTS } from '../versionContracts'
import { depositToGasTank } from './depositToGasTank'
import { gasTankAbi, getGasTankPaymaster } from './gasTankPaymaster'

export type CreateGasTankParameters = {
  /** Initial deposit of each tank. Default: the chain's `gasTankDefaultWei` on dev chains (10 ETH), 0 elsewhere. */
  fundWei?: bigint
  /** The EntryPoint versions whose tank gets the deposit. Default: every version this chain serves. */
  versions?: readonly EntryPointVersion[]
}

/**
 * Creates a dApp's gas tanks: a new `paymasterId` (an address whose key is kept in keys.json, so the service can
 * `withdrawTo` as it) with an initial deposit on the verifying paymaster of each EntryPoint version.
 */
export async function createGasTank(
  chain: Chain,
  parameters: CreateGasTankParameters = {},
): Promise<{ paymasterId: Address; balance: bigint; hash?: Hash }> {
  const account = await chain.addPaymasterIdKey(generatePrivateKey())
  const fundWei = parameters.fundWei ?? (chain.capabilities.isDev ? chain.gasTankDefaultWei : 0n)
  if (fundWei === 0n) return { paymasterId: account.address, balance: 0n }
  let first: { hash: Hash; balance: bigint } | undefined
  for (const version of parameters.versions ?? listGasTankVersions(chain)) {
    const deposited = await depositToGasTank(chain, account.address, fundWei, version)
    first ??= deposited
  }
  return { paymasterId: account.address, balance: first?.balance ?? 0n, hash: first?.hash }
}

/** The versions whose verifying paymaster this chain holds (a node where one is missing serves the others). */
export function listGasTankVersions(chain: Chain): EntryPointVersion[] {
  return ENTRY_POINT_VERSIONS.filter((version) =>
    holdsContracts(chain, getVersionContracts(chain, version).verifying),
  )
}

/**
 * The v0.7/v0.8 gas tanks of `paymasterIds` that had a deposit, read from the paymasters' `GasTankDeposited` logs
 * (one query per version): for dApps from before the store kept which tanks were funded. A node that no longer holds
 * old logs (the embedded chain keeps its recent blocks') shows fewer: read it once, when the history is still there.
 */
export async function readDepositedGasTanks(
  chain: Chain,
  paymasterIds: readonly Address[],
): Promise<Map<string, Set<EntryPointVersion>>> {
  const deposited = new Map<string, Set<EntryPointVersion>>()
  if (paymasterIds.length === 0) return deposited
  for (const version of listGasTankVersions(chain)) {
    if (!VERSION_CONTRACTS[version].logsTankDeposits) continue
    const logs = await chain.publicClient.getContractEvents({
      address: getGasTankPaymaster(chain, version),
      abi: gasTankAbi,
      eventName: 'GasTankDeposited',
      args: { paymasterId: [...paymasterIds] },
      fromBlock: 0n,
    })
    for (const log of logs) {
      const id = log.args.paymasterId?.toLowerCase()
      if (id) deposited.set(id, (deposited.get(id) ?? new Set()).add(version))
    }
  }
  return deposited
}
