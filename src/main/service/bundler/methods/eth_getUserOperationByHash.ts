import { z } from 'zod'
import { WireUserOperationSchema, WireUserOperationV07Schema } from '../../../../shared/api/userOperations'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { UserOpHashSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'

/**
 * `eth_getUserOperationByHash(userOpHash)`: the operation with `transactionHash`, `blockHash`, `blockNumber` and
 * `entryPoint`, both as `userOperation` (ERC-4337 RPC) and flattened (Biconomy). While it is pending the three
 * are null (as eth-infinitism's bundler answers); null for a hash that is unknown, rejected, dropped or replaced.
 */
export const ethGetUserOperationByHash = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_getUserOperationByHash',
    summary:
      'A UserOperation with its transaction and block (null while pending); null when unknown or dropped',
    params: z.tuple([UserOpHashSchema.meta({ title: 'userOpHash' })]),
    result: z
      .looseObject({
        userOperation: z.union([WireUserOperationSchema, WireUserOperationV07Schema]).meta({
          description:
            "The operation in its version's wire form (also flattened into this object, for Biconomy)",
        }),
        entryPoint: z.string(),
        transactionHash: z.string().nullable(),
        blockHash: z.string().nullable(),
        blockNumber: z.string().nullable().meta({ description: '0x-hex' }),
      })
      .nullable(),
    handler: ([userOpHash]) => getBundler().getUserOperationByHash(userOpHash),
  })
