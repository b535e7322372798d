import { readAaCode } from '../entryPoint/errors'
import { Erc7769Code } from '../errors/rpcCodes'
import type { RpcErrorObject } from './toRpcError'

/** A hex literal long enough to spell an EntryPoint code (`0xaa23`, an address, revert data). */
const HEX_LITERAL = /0x[0-9a-fA-F]{4,}/g

/** What viem and permissionless look for, anywhere in a lowercased message, to type a bundler error. */
const SPELLS_AA_CODE = /aa\d\d/i

/** What a hex literal that spells a code is written as in a rejection's message; whole in `data.message`. */
export const HEX_PLACEHOLDER = '0x…'

/**
 * A rejection's message never spells an AA code besides its own: a hex literal (an address, decoded arguments, raw
 * revert data) that holds one is written `0x…`, and the full text moves to `data.message`.
 *
 * viem (and permissionless on it) types a bundler error by testing its lowercased message against `/aa20/`,
 * `/aa91/`, … `/aa33/` … in a fixed order, the first match winning; an address that happens to hold `aa15` or `aa93`
 * (about 1.7 % of addresses hold some code) made an AA33 an `InitCodeMustCreateSenderError` or an
 * `InvalidPaymasterAndDataError`. Hex is the only part of our messages that varies with the chain's bytes; the
 * EntryPoint's own words, frames, function signatures and decoded numbers cannot spell a code by chance. The other
 * hex literals stay: the addresses a rule violation names are what its reader needs.
 *
 * Applies to the ERC-7769 rejections (-32500 to -32599) and to any message that names an AA code; other errors (a
 * hash not found, invalid params) keep their text, which clients do not sort by.
 */
export function hideStrayAaCodes(error: RpcErrorObject): RpcErrorObject {
  if (!isRejection(error)) return error
  const message = error.message.replace(HEX_LITERAL, (hex) =>
    SPELLS_AA_CODE.test(hex) ? HEX_PLACEHOLDER : hex,
  )
  if (message === error.message) return error
  const data = error.data
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
    // No object to hold the full text beside what is there: the message stays whole rather than lose a value.
    return error
  }
  return {
    ...error,
    message,
    data: { ...(data as Record<string, unknown> | undefined), message: error.message },
  }
}

function isRejection({ code, message }: RpcErrorObject): boolean {
  return (
    (code <= Erc7769Code.simulateValidation && code > Erc7769Code.simulateValidation - 100) ||
    readAaCode(message) !== null
  )
}
