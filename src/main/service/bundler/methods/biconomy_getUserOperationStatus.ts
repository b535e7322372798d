import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { UserOpHashSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'
import { BiconomyReceiptSchema, StandardReceiptSchema } from './eth_getUserOperationReceipt'

/**
 * `biconomy_getUserOperationStatus(userOpHash)`: BUNDLER_MEMPOOL → SUBMITTED → CONFIRMED | FAILED, or
 * DROPPED_FROM_BUNDLER_MEMPOOL; an unknown hash is HTTP 200 with error -32004 (the SDK keeps polling).
 */
export const biconomyGetUserOperationStatus = (getBundler: GetBundler) =>
  defineMethod({
    name: 'biconomy_getUserOperationStatus',
    summary:
      "Where a UserOperation is: in the mempool, submitted, confirmed, failed or dropped (Biconomy's method)",
    params: z.tuple([UserOpHashSchema.meta({ title: 'userOpHash' })]),
    result: z.discriminatedUnion('state', [
      z.object({ state: z.literal('BUNDLER_MEMPOOL') }),
      z.object({ state: z.literal('SUBMITTED'), transactionHash: z.string() }),
      z.object({
        state: z.enum(['CONFIRMED', 'FAILED']),
        message: z.string(),
        transactionHash: z.string(),
        userOperationReceipt: z.union([BiconomyReceiptSchema, StandardReceiptSchema]),
      }),
      z.object({ state: z.literal('DROPPED_FROM_BUNDLER_MEMPOOL'), message: z.string() }),
    ]),
    handler: ([userOpHash]) => getBundler().getUserOperationStatus(userOpHash),
  })
