import { type Address, getAddress } from 'viem'
import type { Chain } from '../chain'
import {
  type EntryPointModule,
  entryPointV06,
  entryPointV07,
  entryPointV08,
  listServedEntryPoints,
} from '../entryPoint'
import type { SponsorableOperation } from '../entryPoint/paymaster/sponsorableOperation'
import { bindOperationV06 } from '../entryPoint/v06/bindPaymaster'
import { bindOperationV07, type GivenGasV07 } from '../entryPoint/v07/bindPaymaster'
import type { PackedEntryPointModule } from '../entryPoint/v07/createPackedEntryPoint'
import { InvalidInputError } from '../errors'
import { parseParam } from '../schemas/parseParam'
import { PartialUserOperationSchema } from './schemas'

/** Fields only a v0.7 / v0.8 UserOperation has (ERC-7769): their presence tells the version by shape. */
const V07_ONLY_FIELDS = [
  'factory',
  'factoryData',
  'paymaster',
  'paymasterData',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
  'eip7702Auth',
]
const GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

/**
 * The EntryPoint of a paymaster request: the one it names (ERC-7677's `entryPoint`, or the Biconomy context's), else
 * told by the operation's shape, as Biconomy's methods carry none: v0.6 fields are v0.6; v0.7 fields are v0.7, or
 * v0.8 with an `eip7702Auth`. The chain must hold that EntryPoint's paymasters.
 */
export function selectEntryPoint(chain: Chain, op: unknown, named: Address | undefined): EntryPointModule {
  const served = listServedEntryPoints(chain)
  if (named) {
    const module = served.find((m) => m.address.toLowerCase() === named.toLowerCase())
    if (!module)
      throw new InvalidInputError(
        `EntryPoint ${getAddress(named)} is not supported: this paymaster serves ${served
          .map((m) => `${m.address} (v${m.version})`)
          .join(', ')}`,
      )
    return module
  }
  const fields = op && typeof op === 'object' ? (op as Record<string, unknown>) : {}
  if (V07_ONLY_FIELDS.some((f) => fields[f] != null))
    return fields.eip7702Auth != null ? entryPointV08 : entryPointV07
  if ('initCode' in fields || 'paymasterAndData' in fields || !('sender' in fields)) return entryPointV06
  // Neither v0.6's fields nor v0.7's (a deployed v0.7 account without a paymaster looks like this): guessing would
  // sign for the wrong EntryPoint.
  throw new InvalidInputError(
    'Cannot tell the EntryPoint version of this UserOperation: send v0.6 fields (initCode, paymasterAndData) or name the EntryPoint in the context ({"mode": ..., "entryPoint": "0x…"})',
  )
}

/** Parses `params[0]` by its EntryPoint's schema and binds it to that version's paymasters. */
export function parseSponsorableOperation(raw: unknown, entryPoint: EntryPointModule): SponsorableOperation {
  if (entryPoint.version === '0.6')
    return bindOperationV06(entryPoint, parseParam(PartialUserOperationSchema, raw, 'params[0]'))
  const module = entryPoint as PackedEntryPointModule
  const op = parseParam(module.partialUserOperationSchema, raw, 'params[0]')
  const fields = raw as Record<string, unknown>
  const given: GivenGasV07 = {}
  for (const field of GAS_FIELDS) if (fields[field] != null) given[field] = op[field]
  return bindOperationV07(module, op, given)
}
