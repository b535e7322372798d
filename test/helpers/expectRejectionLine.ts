import { expect } from 'vitest'
import { HEX_PLACEHOLDER } from '../../src/main/service/jsonrpc/hideStrayAaCodes'

/** A hex literal that spells an AA code (what a rejection's message writes as `0x…`, whole in `data.message`). */
const CODE_SPELLING_HEX = /0x[0-9a-fA-F]*[aA][aA]\d\d/

type RejectionError = { message: string; data?: { message?: unknown } | null }

/** A rejection's text in full: `data.message` when its message had to hide hex that spells an AA code. */
export function fullMessageOf(error: RejectionError): string {
  return typeof error.data?.message === 'string' ? error.data.message : error.message
}

/**
 * A rejection's JSON-RPC error says `line`: in full in `data.message` when it differs, and in its `message` with each
 * hex literal that spells an AA code written `0x…` (viem types errors by any `aaNN` in the message), the two the same
 * text otherwise.
 */
export function expectRejectionLine(error: RejectionError, line: string | RegExp): void {
  const full = fullMessageOf(error)
  if (typeof line === 'string') expect(full).toBe(line)
  else expect(full).toMatch(line)
  expect(error.message).not.toMatch(CODE_SPELLING_HEX)
  const withHidden = error.message
    .split(HEX_PLACEHOLDER)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('0x[0-9a-fA-F]{4,}')
  expect(full).toMatch(new RegExp(`^${withHidden}$`))
}
