import type { Hex, RpcStateOverride } from 'viem'
import { z } from 'zod'
import { toHexQuantity } from '../schemas/hexSchemas'
import { quantitySchema } from '../schemas/quantitySchema'

/** Longest code an override may place (256 KiB, EIP-7907's limit; mainnet's own is 24 KiB). */
const MAX_CODE_BYTES = 256 * 1024

const SlotSchema = z
  .string({ error: 'expected a 32-byte hex value (0x followed by 64 hex digits)' })
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hex value (0x followed by 64 hex digits)')
  .transform((value) => value.toLowerCase() as Hex)

const SlotsSchema = z.record(SlotSchema, SlotSchema, {
  error: (issue) =>
    issue.code === 'invalid_key'
      ? `storage slot ${JSON.stringify(issue.input)}: expected a 32-byte hex value (0x followed by 64 hex digits)`
      : 'expected an object of 32-byte storage slots to 32-byte values',
})

const CodeSchema = z
  .string({ error: 'expected bytecode as 0x-prefixed hex bytes' })
  .max(2 + MAX_CODE_BYTES * 2, { error: `expected bytecode of at most ${MAX_CODE_BYTES / 1024} KiB` })
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected bytecode as 0x-prefixed hex bytes')
  .transform((value) => value.toLowerCase() as Hex)

const AccountOverrideSchema = z
  .strictObject(
    {
      balance: quantitySchema().transform(toHexQuantity).optional(),
      nonce: quantitySchema({ bits: 64 }).transform(toHexQuantity).optional(),
      code: CodeSchema.optional(),
      state: SlotsSchema.optional(),
      stateDiff: SlotsSchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.map((key) => `"${key}"`).join(', ')}: an account override has balance, nonce, code, state and stateDiff`
          : 'expected an account override { balance?, nonce?, code?, state?, stateDiff? }',
    },
  )
  .refine((account) => !(account.state && account.stateDiff), {
    error: 'state and stateDiff cannot both be set (state replaces the whole storage)',
  })

/**
 * The state overrides of eth_estimateUserOperationGas (the third param, geth's eth_call override set): per
 * address, balance and nonce as quantities (uint256, uint64), code as bytecode, and state or stateDiff as 32-byte
 * slots to 32-byte values; nothing else. Checked here, so the node never sees a value it cannot parse (its parser
 * text would come back as a chain failure, and anvil's IPC drops a request it cannot read without an answer).
 * The result is the node's form: quantities as 0x-hex without leading zeros, hex in lower case.
 */
export const StateOverrideSchema = z
  .record(z.string().regex(/^0x[0-9a-fA-F]{40}$/), AccountOverrideSchema, {
    error: (issue) =>
      issue.code === 'invalid_key'
        ? 'state override keys must be addresses (0x followed by 40 hex digits)'
        : 'expected state overrides: an object of addresses to account overrides',
  })
  .transform((overrides) => overrides as RpcStateOverride)
