import { z } from 'zod'
import { documentVersionForms } from '../../entryPoint'
import { defineMethod, parsedLater } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
import { StateOverrideSchema } from '../stateOverrideSchema'

const hex = z.string().meta({ description: '0x-hex' })

/** v0.6: spec section 2.3 as the Biconomy SDK v4 reads it. */
const EstimateV06Schema = z
  .object({
    callGasLimit: z.number().int(),
    verificationGasLimit: z.number().int(),
    preVerificationGas: z.number().int(),
    validUntil: hex,
    validAfter: hex,
    maxPriorityFeePerGas: z.string().meta({ description: 'Decimal' }),
    maxFeePerGas: z.string().meta({ description: 'Decimal' }),
  })
  .meta({ description: 'EntryPoint v0.6' })

/** v0.7/v0.8: ERC-7769, the paymaster's two limits only with a paymaster. */
const EstimateV07Schema = z
  .object({
    preVerificationGas: hex,
    verificationGasLimit: hex,
    callGasLimit: hex,
    paymasterVerificationGasLimit: hex.optional(),
    paymasterPostOpGasLimit: hex.optional(),
    maxFeePerGas: hex,
    maxPriorityFeePerGas: hex,
    validAfter: hex,
    validUntil: hex,
  })
  .meta({ description: 'EntryPoint v0.7 and v0.8' })

import type { GetBundler } from './bundlerAccess'

/**
 * `eth_estimateUserOperationGas(userOperation, entryPoint[, stateOverrides])`: the operation is parsed and
 * estimated by its EntryPoint's version, which also gives the result's shape (v0.6: spec section 2.3 as the
 * Biconomy SDK v4 reads it; v0.7/v0.8: ERC-7769 with the paymaster's two limits).
 */
export const ethEstimateUserOperationGas = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_estimateUserOperationGas',
    summary:
      'Estimate the gas limits of a UserOperation (its limits and fees may be left out); a failure keeps its ERC-7769 code and names the phase, the frame and the decoded reason (also in error.data)',
    params: z.tuple([
      parsedLater(
        z.record(z.string(), z.unknown()),
        documentVersionForms((module) => module.partialUserOperationSchema),
      ).meta({
        title: 'userOperation',
        description: "In its EntryPoint version's form; the signature need only have the right length",
      }),
      AddressSchema.meta({ title: 'entryPoint' }),
      StateOverrideSchema.nullish().meta({ title: 'stateOverride' }),
    ]),
    result: z.union([EstimateV06Schema, EstimateV07Schema]),
    handler: ([userOperation, entryPoint, stateOverride]) =>
      getBundler().estimateUserOperationGas({
        userOperation,
        entryPoint,
        stateOverride: stateOverride ?? undefined,
      }),
  })
