import type { z } from 'zod'
import { RpcError } from '../errors'
import { RpcCode } from '../errors/rpcCodes'
import { describeZodError } from './describeZodError'

/**
 * Parses one JSON-RPC parameter whose schema depends on another (a UserOperation's shape on its EntryPoint's
 * version), with the same -32602 message the method's own params schema gives (`Invalid params: params[0].x: …`).
 */
export function parseParam<T>(schema: z.ZodType<T, unknown>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success)
    throw new RpcError(`Invalid params: ${describeZodError(parsed.error, path)}`, RpcCode.invalidParams)
  return parsed.data
}
