import type { Hex } from 'viem'
import type { InnerCall } from './innerCall'

/**
 * An account function the EntryPoint calls with the UserOperation's callData, by its signature. `decode` takes
 * the arguments (callData without the selector) and returns the calls the account makes. It throws an `Error`
 * when the arguments are malformed, and an `UnsupportedCallError` when they are well formed but ask for
 * something the whitelist cannot check call by call (a delegatecall, an unknown call type).
 */
export type AccountFunction = {
  name: string
  decode: (args: Hex) => InnerCall[]
}

/** Well-formed callData that does something other than plain calls; the message is the whole reason. */
export class UnsupportedCallError extends Error {
  override name = 'UnsupportedCallError' as const
}
