import { getAddress, isAddress } from 'viem'
import { z } from 'zod'
import type { PaymasterMode } from '../entryPoint'
import { boundedJsonObjectSchema } from '../schemas/boundedJsonSchema'
import { quantitySchema } from '../schemas/quantitySchema'
import type { PaymasterContext } from './types'

/** Default validity of a paymaster signature (spec 2.5: expiryDuration 300 = five minutes). */
export const DEFAULT_EXPIRY_SECONDS = 300
/** Longest accepted expiryDuration: one week. */
const MAX_EXPIRY_SECONDS = 7 * 24 * 3600

export const addressSchema = z
  .string({ error: 'expected an address' })
  .refine((value) => isAddress(value, { strict: false }), { error: 'expected a 0x-prefixed 20-byte address' })
  .transform((value) => getAddress(value))

const modeSchema = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'mode is required (SPONSORED or ERC20)' : 'mode must be a string',
  })
  .transform((value, ctx): PaymasterMode => {
    const upper = value.toUpperCase()
    if (upper === 'SPONSORED' || upper === 'SPONSORSHIP') return 'SPONSORED'
    if (upper === 'ERC20') return 'ERC20'
    ctx.addIssue({ code: 'custom', message: `mode must be SPONSORED or ERC20, got "${value}"` })
    return z.NEVER
  })

const rawContextShape = {
  mode: modeSchema,
  /**
   * Opstation's extension for Biconomy's methods, which carry no EntryPoint: the EntryPoint a v0.7/v0.8-shaped
   * operation is for (default: v0.8 with an eip7702Auth, else v0.7).
   */
  entryPoint: addressSchema.nullish(),
  calculateGasLimits: z.boolean({ error: 'calculateGasLimits must be a boolean' }).nullish(),
  expiryDuration: z
    .number({ error: 'expiryDuration must be a number of seconds' })
    .int({ error: 'expiryDuration must be a whole number of seconds' })
    .positive({ error: 'expiryDuration must be positive' })
    .max(MAX_EXPIRY_SECONDS, { error: `expiryDuration must be at most ${MAX_EXPIRY_SECONDS} seconds` })
    .nullish(),
  sponsorshipInfo: z
    .looseObject(
      {
        // Sent on to the webhook and kept in its call log: bounded in depth and size.
        webhookData: boundedJsonObjectSchema({ field: 'webhookData' }).nullish(),
        smartAccountInfo: z
          .looseObject(
            { name: z.string().optional(), version: z.string().optional() },
            { error: 'smartAccountInfo must be an object' },
          )
          .nullish(),
      },
      { error: 'sponsorshipInfo must be an object' },
    )
    .nullish(),
  tokenInfo: z
    .looseObject(
      {
        feeTokenAddress: z.string({ error: 'feeTokenAddress must be an address string' }).nullish(),
        preferredToken: z.string({ error: 'preferredToken must be an address string' }).nullish(),
        tokenList: z
          .array(z.string({ error: 'tokenList must hold address strings' }), {
            error: 'tokenList must be an array',
          })
          .nullish(),
      },
      { error: 'tokenInfo must be an object' },
    )
    .nullish(),
}

function toPaymasterContext(raw: z.output<z.ZodObject<typeof rawContextShape>>): PaymasterContext {
  return {
    mode: raw.mode,
    entryPoint: raw.entryPoint ?? undefined,
    calculateGasLimits: raw.calculateGasLimits ?? true,
    expiryDuration: raw.expiryDuration ?? DEFAULT_EXPIRY_SECONDS,
    webhookData: raw.sponsorshipInfo?.webhookData ?? undefined,
    smartAccountInfo: raw.sponsorshipInfo?.smartAccountInfo ?? undefined,
    feeTokenAddress: raw.tokenInfo?.feeTokenAddress ?? undefined,
    preferredToken: raw.tokenInfo?.preferredToken ?? undefined,
    tokenList: raw.tokenInfo?.tokenList ?? undefined,
  }
}

/** The Biconomy paymaster context (second param); `mode` is required. */
export const PaymasterContextSchema = z
  .looseObject(rawContextShape, { error: 'expected the paymaster context object ({ mode, ... })' })
  .transform(toPaymasterContext)

/** The ERC-7677 context: the same object, optional; without it the request is SPONSORED. */
export const Erc7677ContextSchema = z
  .looseObject(
    { ...rawContextShape, mode: modeSchema.nullish().transform((m) => m ?? 'SPONSORED') },
    {
      error: 'context must be an object',
    },
  )
  .nullish()
  .transform((raw) => toPaymasterContext(raw ?? { mode: 'SPONSORED' as const }))

/** A chain id as ERC-7677 sends it (0x-hex; decimal tolerated). */
export const chainIdSchema = quantitySchema({ bits: 64 }).transform((v) => Number(v))
