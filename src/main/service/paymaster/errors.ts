import { AppError, type AppErrorOptions } from '../errors'
import { RpcCode } from '../errors/rpcCodes'

/**
 * The dApp's policies do not sponsor this op (EIP-1474 -32003 "transaction rejected"; HTTP 400 so the Biconomy
 * SDK rejects and viem does not retry). `data` carries the sponsorship id and the failing step.
 */
export class SponsorshipRejectedError extends AppError {
  override name = 'SponsorshipRejectedError'
  override rpcCode: number = RpcCode.badRequest
  override rpcHttpStatus = 400
  override httpStatus = 403

  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, options)
  }
}
