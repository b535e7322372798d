import { type Hex, numberToHex, type RpcStateOverride } from 'viem'
import { type Chain, FailedOpError, SimulationRevertedError, simulateHandleOp } from '../chain'
import { AppError, ChainError, RpcError } from '../errors'
import { Erc7769Code } from '../jsonrpc/codes'
import { calculatePreVerificationGas } from './calculatePreVerificationGas'
import type { GasLimits, PartialUserOperation, SignableUserOperation } from './types'

/** Gas limits of the simulated op: high enough for any ordinary op, low enough for an eth_call gas cap. */
const PROVISIONAL_CALL_GAS = 8_000_000n
const PROVISIONAL_VERIFICATION_GAS = 2_000_000n
/** Fee of the simulated op: 1 wei makes `paid` equal the gas used and the prefund negligible. */
const SIMULATION_FEE = 1n

export type EstimateGasLimitsParameters = {
  chain: Chain
  op: PartialUserOperation
  /**
   * Builds the paymasterAndData the final op will carry, signed for the given op, so the simulation runs the
   * paymaster's validation and postOp exactly. Omit for an op without paymaster (the user pays).
   */
  buildPaymasterAndData?: (op: SignableUserOperation) => Promise<Hex>
  /** Smallest verificationGasLimit (it also bounds the paymaster's postOp in v0.6). */
  minVerificationGasLimit?: bigint
}

/**
 * Estimates callGasLimit, verificationGasLimit and preVerificationGas with one EntryPoint.simulateHandleOp:
 * the op carries a real-length (and, for our paymasters, validly signed) paymasterAndData. `preOpGas` minus
 * preVerificationGas is the validation gas; `paid - preOpGas` the execution (call + postOp). Margins cover
 * the 63/64 rule and postOp variance.
 */
export async function estimateGasLimits(params: EstimateGasLimitsParameters): Promise<GasLimits> {
  const { chain, op } = params
  const provisional: SignableUserOperation = {
    sender: op.sender,
    nonce: op.nonce,
    initCode: op.initCode,
    callData: op.callData,
    callGasLimit: PROVISIONAL_CALL_GAS,
    verificationGasLimit: PROVISIONAL_VERIFICATION_GAS,
    preVerificationGas: 0n,
    maxFeePerGas: SIMULATION_FEE,
    maxPriorityFeePerGas: SIMULATION_FEE,
  }
  let paymasterAndData: Hex = '0x'
  if (params.buildPaymasterAndData) {
    // The signature length does not depend on the values: size the op with a first signature, then sign again.
    paymasterAndData = await params.buildPaymasterAndData(provisional)
  }
  const preVerificationGas = calculatePreVerificationGas({ ...op, paymasterAndData })
  provisional.preVerificationGas = preVerificationGas
  if (params.buildPaymasterAndData) paymasterAndData = await params.buildPaymasterAndData(provisional)

  let stateOverride: RpcStateOverride | undefined
  if (!params.buildPaymasterAndData) {
    // The user pays: make sure the simulated prefund does not fail for an empty (counterfactual) account.
    const balance = await chain.publicClient.getBalance({ address: op.sender })
    stateOverride = { [op.sender]: { balance: numberToHex(balance + 10n ** 18n) } }
  }

  let result: Awaited<ReturnType<typeof simulateHandleOp>>
  try {
    result = await simulateHandleOp(
      chain,
      { ...provisional, paymasterAndData, signature: op.signature ?? '0x' },
      undefined,
      undefined,
      stateOverride ? { stateOverride } : {},
    )
  } catch (err) {
    throw toEstimationError(err)
  }
  const validationGas = result.preOpGas - preVerificationGas
  const executionGas = result.paid / SIMULATION_FEE - result.preOpGas
  const verificationGasLimit = max(
    (validationGas * 12n) / 10n + 15_000n,
    params.minVerificationGasLimit ?? 0n,
  )
  const callGasLimit = (executionGas * 115n) / 100n + 10_000n
  return { callGasLimit, verificationGasLimit, preVerificationGas }
}

/** Estimation failures are deterministic rejections (HTTP 400, ERC-7769 code), never a 500. */
function toEstimationError(err: unknown): AppError {
  if (err instanceof FailedOpError) {
    return new RpcError(err.reason, err.rpcCode, { cause: err, data: err.data })
  }
  if (err instanceof SimulationRevertedError) {
    return new RpcError(`Gas estimation failed: ${err.shortMessage}`, Erc7769Code.executionReverted, {
      cause: err,
      data: err.data,
    })
  }
  if (err instanceof AppError) return err
  return new ChainError('Gas estimation failed: the node did not answer the simulation', { cause: err })
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}
