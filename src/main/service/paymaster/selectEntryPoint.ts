import { type Address, getAddress } from 'viem'
import type { Chain } from '../chain'
import { allEntryPoints, type EntryPointModule, listServedEntryPoints } from '../entryPoint'
import { InvalidInputError } from '../errors'

/**
 * The EntryPoint of a paymaster request: the one it names (ERC-7677's `entryPoint`, or the Biconomy context's), else
 * told by the operation's shape (`module.recognizes`), as Biconomy's methods carry none. The chain must hold that
 * EntryPoint's paymasters. Bind the operation with `module.paymaster.bind(raw)`.
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
  // Newest first: a later version's form may also carry an older one's fields (v0.8 is v0.7's plus eip7702Auth).
  const recognized = [...allEntryPoints].reverse().find((module) => module.recognizes(fields))
  if (recognized) return recognized
  // Not an operation at all (no object, no sender): the oldest version's schema says what is missing.
  if (!('sender' in fields)) return allEntryPoints[0] as EntryPointModule
  // Neither v0.6's fields nor v0.7's (a deployed v0.7 account without a paymaster looks like this): guessing would
  // sign for the wrong EntryPoint.
  throw new InvalidInputError(
    'Cannot tell the EntryPoint version of this UserOperation: send v0.6 fields (initCode, paymasterAndData) or name the EntryPoint in the context ({"mode": ..., "entryPoint": "0x…"})',
  )
}
