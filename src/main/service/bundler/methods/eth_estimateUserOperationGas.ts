import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { StateOverrideSchema } from '../stateOverrideSchema'
import { AddressSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * `eth_estimateUserOperationGas(userOperation, entryPoint[, stateOverrides])`: the operation is parsed and
 * estimated by its EntryPoint's version, which also gives the result's shape (v0.6: spec section 2.3 as the
 * Biconomy SDK v4 reads it; v0.7/v0.8: ERC-7769 with the paymaster's two limits).
 */
export const ethEstimateUserOperationGas = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_estimateUserOperationGas',
    params: z.tuple([z.record(z.string(), z.unknown()), AddressSchema, StateOverrideSchema.nullish()]),
    handler: ([userOperation, entryPoint, stateOverride]) =>
      getBundler().estimateUserOperationGas({
        userOperation,
        entryPoint,
        stateOverride: stateOverride ?? undefined,
      }),
  })
