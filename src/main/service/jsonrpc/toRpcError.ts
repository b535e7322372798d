import { AppError } from '../errors'
import { classifyError } from '../errors/classifyError'
import { RpcCode } from '../errors/rpcCodes'
import type { Logger } from '../log/logger'
import { hideStrayAaCodes } from './hideStrayAaCodes'

export type RpcErrorObject = { code: number; message: string; data?: unknown }

/** The only place that turns a thrown value into a JSON-RPC error object and its HTTP status. */
export function toRpcError(thrown: unknown, log?: Logger): { error: RpcErrorObject; httpStatus: number } {
  const err = classifyError(thrown)
  if (err instanceof AppError) {
    const error: RpcErrorObject = { code: err.rpcCode, message: err.shortMessage }
    if (err.data !== undefined) error.data = err.data
    if (err.rpcCode === RpcCode.internalError) log?.error({ err }, 'JSON-RPC internal error')
    return { error: hideStrayAaCodes(error), httpStatus: err.rpcHttpStatus }
  }
  log?.error({ err }, 'unexpected error in JSON-RPC handler')
  return { error: { code: RpcCode.internalError, message: 'Internal error' }, httpStatus: 500 }
}
