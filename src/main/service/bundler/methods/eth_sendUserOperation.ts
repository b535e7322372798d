import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/** Biconomy SDK v4 always sends `{simulation_type: 'validation'}` as a third parameter. */
const SimulationTypeSchema = z.looseObject({
  simulation_type: z.enum(['validation', 'validation_and_execution']).optional(),
})

/** `eth_sendUserOperation(userOperation, entryPoint[, {simulation_type}])` → the userOpHash of its version. */
export const ethSendUserOperation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_sendUserOperation',
    // The operation is parsed by its EntryPoint's version (the bundler's lane for `entryPoint`).
    params: z.tuple([z.record(z.string(), z.unknown()), AddressSchema, SimulationTypeSchema.optional()]),
    handler: ([userOperation, entryPoint, simulation], ctx) =>
      getBundler().sendUserOperation({
        userOperation,
        entryPoint,
        dappId: ctx.dapp?.id ?? null,
        receiptFormat: simulation ? 'biconomy' : 'standard',
        simulationType: simulation?.simulation_type,
      }),
  })
