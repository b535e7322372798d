import { AppError, type AppErrorOptions } from '../../errors'

/** The EntryPoint rejected a UserOperation with `FailedOp(opIndex, reason)`, e.g. `AA21 didn't pay prefund`. */
export class FailedOpError extends AppError {
  override name = 'FailedOpError'
  override httpStatus = 400
  override rpcHttpStatus = 400
  readonly opIndex: number
  /** The EntryPoint's reason text. */
  readonly reason: string
  /** `AA21` etc., or null when the reason has no code. */
  readonly aaCode: string | null

  constructor(opIndex: number, reason: string, options: AppErrorOptions = {}) {
    super(reason, options)
    this.opIndex = opIndex
    this.reason = reason
    this.aaCode = /^AA\d\d/.exec(reason)?.[0] ?? null
    // ERC-7769: -32501 paymaster validation (AA3x), -32500 other validation failures.
    this.rpcCode = this.aaCode?.startsWith('AA3') ? -32501 : -32500
  }
}

/** A simulation reverted with something other than its expected result or FailedOp. */
export class SimulationRevertedError extends AppError {
  override name = 'SimulationRevertedError'
  override rpcCode = -32521
  override httpStatus = 400
  override rpcHttpStatus = 400
  /** Decoded reason (`Error(string)` text, custom error name and args, or Panic code), if any. */
  readonly reason: string | null
  readonly revertData: `0x${string}` | null

  constructor(
    message: string,
    reason: string | null,
    revertData: `0x${string}` | null,
    options: AppErrorOptions = {},
  ) {
    super(message, options)
    this.reason = reason
    this.revertData = revertData
  }
}
