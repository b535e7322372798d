import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { UserOpHashSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'
import { ExplanationSchema } from './explanationSchema'

/**
 * `opstation_traceUserOperation(userOpHash)`: why an operation the service has seen did what it did: its phases
 * (gas against limits, outcome, the failing frame and decoded reason), the decoded call tree, events and balance
 * changes, from the trace of its bundle transaction (traced when asked); a rejected one from the simulation made when
 * it was rejected; a pending or dropped operation with its status and reason. An unknown hash is -32004.
 */
export const opstationTraceUserOperation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'opstation_traceUserOperation',
    summary:
      'Explain a UserOperation the service has seen: phases, failing frame and decoded reason, call tree, events, balance changes',
    params: z.tuple([UserOpHashSchema.meta({ title: 'userOpHash' })]),
    result: ExplanationSchema,
    handler: ([userOpHash]) => getBundler().traceUserOperation(userOpHash),
  })
