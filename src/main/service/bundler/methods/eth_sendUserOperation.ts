import { z } from 'zod'
import { documentVersionForms } from '../../entryPoint'
import { defineMethod, parsedLater } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
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
    summary:
      'Validate a signed UserOperation and add it to the mempool; answers its userOpHash. A validation revert keeps its AA code and ERC-7769 code and names the frame and the decoded reason (also in error.data)',
    params: z.tuple([
      parsedLater(
        z.record(z.string(), z.unknown()),
        documentVersionForms((module) => module.userOperationSchema),
      ).meta({
        title: 'userOperation',
        description: "In its EntryPoint version's form: v0.6, or ERC-7769's v0.7/v0.8 form",
      }),
      AddressSchema.meta({ title: 'entryPoint' }),
      SimulationTypeSchema.optional().meta({
        title: 'simulation',
        description:
          'The Biconomy SDK v4 sends it (the receipt is then in its shape); validation_and_execution also rejects a call phase that reverts',
      }),
    ]),
    result: z.string().meta({ description: 'The userOpHash' }),
    handler: ([userOperation, entryPoint, simulation], ctx) =>
      getBundler().sendUserOperation({
        userOperation,
        entryPoint,
        dappId: ctx.dapp?.id ?? null,
        receiptFormat: simulation ? 'biconomy' : 'standard',
        simulationType: simulation?.simulation_type,
      }),
  })
