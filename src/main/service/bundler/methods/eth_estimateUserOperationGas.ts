import type { RpcStateOverride } from 'viem'
import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema, PartialUserOperationSchema, toHexQuantity } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

const StateOverrideSchema = z.record(
  z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'state override keys must be addresses'),
  z.looseObject({
    balance: z.string().optional(),
    nonce: z.string().optional(),
    code: z.string().optional(),
    state: z.record(z.string(), z.string()).optional(),
    stateDiff: z.record(z.string(), z.string()).optional(),
  }),
)

/**
 * `eth_estimateUserOperationGas(userOperation, entryPoint[, stateOverrides])` in the shape of spec section 2.3
 * as the Biconomy SDK v4 reads it: limits as JSON numbers, fees as decimal strings, validUntil / validAfter as
 * 0x-hex strings (never the `{type:'BigNumber'}` objects the SDK cannot parse).
 */
export const ethEstimateUserOperationGas = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_estimateUserOperationGas',
    params: z.tuple([PartialUserOperationSchema, AddressSchema, StateOverrideSchema.optional()]),
    handler: async ([userOperation, entryPoint, stateOverride]) => {
      const estimate = await getBundler().estimateUserOperationGas({
        userOperation,
        entryPoint,
        stateOverride: stateOverride as RpcStateOverride | undefined,
      })
      return {
        callGasLimit: Number(estimate.callGasLimit),
        verificationGasLimit: Number(estimate.verificationGasLimit),
        preVerificationGas: Number(estimate.preVerificationGas),
        validUntil: toHexQuantity(estimate.validUntil === 0 ? 0xffff_ffff_ffff : estimate.validUntil),
        validAfter: toHexQuantity(estimate.validAfter),
        maxPriorityFeePerGas: estimate.maxPriorityFeePerGas.toString(),
        maxFeePerGas: estimate.maxFeePerGas.toString(),
      }
    },
  })
