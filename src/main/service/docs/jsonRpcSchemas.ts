import { z } from 'zod'

const RpcIdSchema = z.union([z.string(), z.number(), z.null()])

const JsonRpcCallSchema = z.object({
  jsonrpc: z.string().meta({ description: '"2.0" ("2.0.0" is accepted too)' }),
  id: RpcIdSchema.optional().meta({ description: 'Echoed in the answer; none for a notification' }),
  method: z.string(),
  params: z.array(z.unknown()).optional().meta({ description: 'Positional params' }),
})

/** A JSON-RPC 2.0 POST body: one call or a batch. */
export const JsonRpcRequestSchema = z.union([JsonRpcCallSchema, z.array(JsonRpcCallSchema).min(1)])

const JsonRpcErrorObjectSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
})

/** The answer to a failed call (or to a body that is no JSON-RPC request). */
export const JsonRpcErrorResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RpcIdSchema,
  error: JsonRpcErrorObjectSchema,
})

const JsonRpcResponseObjectSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: RpcIdSchema, result: z.unknown() }),
  JsonRpcErrorResponseSchema,
])

/** The answer to one call, or to a batch (an array, notifications left out). */
export const JsonRpcResponseSchema = z.union([
  JsonRpcResponseObjectSchema,
  z.array(JsonRpcResponseObjectSchema),
])
