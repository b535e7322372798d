import { expect } from 'vitest'
import { Erc7769Code } from '../../../../src/main/service/errors/rpcCodes'
import type { RpcReply } from './specSuite'

/** The suite's RPCErrorCode.BANNED_OPCODE: an ERC-7562 rule broken in validation. */
export const BANNED_OPCODE = Erc7769Code.opcodeValidation

/** The suite's assert_ok: the bundler answered with the operation's hash. */
export function expectAccepted(reply: RpcReply): void {
  expect(reply.body.error?.message ?? null, 'the bundler rejected the operation').toBeNull()
  expect(reply.body.result).toMatch(/^0x[0-9a-f]{64}$/)
}

/**
 * The suite's assert_rpc_error: the bundler refused with `code`, and its message holds each fragment (compared in
 * lower case, as the suite does).
 */
export function expectRejected(reply: RpcReply, code: number, fragments: string[] = []): void {
  expect(reply.body.result, 'the bundler accepted the operation').toBeUndefined()
  expect(reply.body.error?.code, reply.body.error?.message).toBe(code)
  for (const fragment of fragments) {
    expect(reply.body.error.message.toLowerCase()).toContain(fragment.toLowerCase())
  }
}
