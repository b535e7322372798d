import { type Address, getAddress } from 'viem'
import { z } from 'zod'
import type { ChainAddresses } from '../chain/types'
import { holdsContracts } from '../chain/versionContracts'
import { RpcError } from '../errors'
import { RpcCode } from '../errors/rpcCodes'
import type { EntryPointModule, EntryPoints, EntryPointVersion } from './types'
import { entryPointV06 } from './v06'
import { entryPointV07 } from './v07'
import { entryPointV08 } from './v08'
import { entryPointV09 } from './v09'

/** Every EntryPoint version Opstation implements, oldest first. */
export const allEntryPoints: readonly EntryPointModule[] = [
  entryPointV06,
  entryPointV07,
  entryPointV08,
  entryPointV09,
]

/**
 * The EntryPoints served: every version whose EntryPoint the chain has (`available`: their addresses; a node
 * where one could not be deployed serves the others).
 */
export function createEntryPoints(available?: (module: EntryPointModule) => boolean): EntryPoints {
  const list = allEntryPoints.filter((module) => available?.(module) ?? true)
  const byAddress = new Map(list.map((module) => [module.address.toLowerCase(), module]))
  const find = (address: Address) => byAddress.get(address.toLowerCase())
  return {
    list,
    find,
    require(address) {
      const module = find(address)
      if (module) return module
      throw new RpcError(
        `EntryPoint ${getAddress(address)} is not supported; this bundler serves ${list
          .map((m) => `${m.address} (v${m.version})`)
          .join(', ')}`,
        RpcCode.invalidParams,
      )
    },
    byVersion(version: EntryPointVersion) {
      const module = list.find((m) => m.version === version)
      if (!module)
        throw new RpcError(`EntryPoint v${version} is not available on this chain`, RpcCode.invalidParams)
      return module
    },
  }
}

/**
 * The forms a parameter takes, one per EntryPoint version, each described by its version: the schema the API
 * documents show for a parameter the handler parses by version (`pick`: the module's complete or partial schema).
 */
export function documentVersionForms(pick: (module: EntryPointModule) => z.ZodType): z.ZodType {
  const forms = allEntryPoints.map((module) =>
    pick(module).meta({ description: `EntryPoint v${module.version}` }),
  )
  return z.union(forms as [z.ZodType, z.ZodType, ...z.ZodType[]])
}

/** The chain holds this version's EntryPoint with its canonical code. */
export function hasEntryPoint(chain: ChainContracts, module: Pick<EntryPointModule, 'contracts'>): boolean {
  return holdsContracts(chain, module.contracts(chain).entryPoint)
}

/** What a chain tells of its contracts: their addresses, and the ones missing or deployed with other code. */
type ChainContracts = {
  addresses: ChainAddresses
  missing: readonly string[]
  mismatched: readonly string[]
}

/** The EntryPoint modules this chain serves (its EntryPoint deployed with the canonical code), oldest first. */
export function listServedEntryPoints(chain: ChainContracts): EntryPointModule[] {
  return allEntryPoints.filter((module) => hasEntryPoint(chain, module))
}

export { decodeHandleOpsRevert } from './decodeHandleOpsRevert'
export { formatHexSponsorResult, formatPaymasterFields } from './paymaster/formatSponsorResult'
export type {
  Fees,
  GasLimits,
  PackedPaymasterFields,
  PaymasterChoice,
  PaymasterMode,
  SignedPaymaster,
  SponsorableOperation,
  SponsorResult,
} from './paymaster/sponsorableOperation'
export { TOKEN_PAYMASTER_UNACCOUNTED_COST } from './paymaster/tokenPaymasterCost'
export type {
  BlockRange,
  EntryPointModule,
  EntryPoints,
  EntryPointVersion,
  UserOperationBase,
} from './types'
export type { UserOperationV06 } from './v06/userOperation'
export { delegationCode } from './v07/eip7702'
/**
 * What a client of one version builds its operations with (the sandbox's account kinds sign Safe's packed fields and
 * delegate EIP-7702 accounts): exported here so nothing outside entryPoint/ reaches into a version's folder.
 */
export { packUserOperation } from './v07/packUserOperation'
export type { Eip7702Auth, UserOperationV07 } from './v07/userOperation'
export { encodeBlockRange, readBlockRange } from './validationData'
export { entryPointV06, entryPointV07, entryPointV08, entryPointV09 }
