import { z } from 'zod'
import { documentVersionForms } from '../../entryPoint'
import { defineMethod, parsedLater } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'
import { ExplanationSchema } from './explanationSchema'

/**
 * `opstation_simulateUserOperation(userOperation, entryPoint)`: the explanation of an operation not sent, from a
 * traced `handleOps` of it against the latest block (the chain does not change): `would-succeed`, `would-revert`
 * (execution or postOp fails) or `rejected` (validation fails, with the frame and reason).
 */
export const opstationSimulateUserOperation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'opstation_simulateUserOperation',
    summary:
      'Explain a UserOperation without sending it: simulated against the latest block, the chain unchanged',
    params: z.tuple([
      parsedLater(
        z.record(z.string(), z.unknown()),
        documentVersionForms((module) => module.userOperationSchema),
      ).meta({
        title: 'userOperation',
        description:
          "In its EntryPoint version's form, with its gas limits and fees. The signature may be absent or `0x`: " +
          "the account's validation is then reported `signature: 'missing'` (a stand-in signature is used) and the " +
          'rest is simulated past it',
      }),
      AddressSchema.meta({ title: 'entryPoint' }),
    ]),
    result: ExplanationSchema,
    handler: ([userOperation, entryPoint]) =>
      getBundler().simulateUserOperation({ userOperation, entryPoint }),
  })
