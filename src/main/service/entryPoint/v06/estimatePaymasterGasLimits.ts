import type { Hex, RpcStateOverride } from 'viem'
import type { Chain, UserOperationV06 } from '../../chain'
import type { GasLimits, PartialUserOperation } from '../../paymaster/types'
import { estimateUserOperationGas } from './estimateUserOperationGas'

/** A 65-byte signature of non-zero bytes: sizes a paymasterAndData for preVerificationGas before it is signed. */
export const PLACEHOLDER_SIGNATURE = `0x${'ff'.repeat(65)}` as Hex

export type EstimateGasLimitsParameters = {
  chain: Chain
  /** With the fees it will be sent with (the paymaster signs them). */
  op: PartialUserOperation & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  /**
   * The paymaster the op will use. `placeholder` has the final length (preVerificationGas counts it); `sign`
   * returns the real paymasterAndData for each simulated op, so the paymaster's validation takes the signed
   * path and its postOp is measured. Omit for an op without paymaster (the user pays).
   */
  paymaster?: {
    placeholder: Hex
    sign: (op: UserOperationV06) => Promise<Hex>
    /** Balances to lift in the simulation (see simulationOverrides.ts). */
    stateOverride?: RpcStateOverride
  }
  /** Smallest verificationGasLimit (in v0.6 it also bounds the paymaster's postOp). */
  minVerificationGasLimit?: bigint
}

/**
 * Gas limits for the paymaster's calculateGasLimits: the bundler's estimator (traced simulateHandleOp,
 * measured plus margins, re-simulated with exactly the returned limits; -32521 when the call reverts, AAxx
 * reasons otherwise) run on the op as it will be sent, with real-length and validly signed paymasterAndData.
 */
export async function estimateGasLimits(params: EstimateGasLimitsParameters): Promise<GasLimits> {
  const { chain, op, paymaster } = params
  const gasFees = { maxFeePerGas: op.maxFeePerGas, maxPriorityFeePerGas: op.maxPriorityFeePerGas }
  const estimate = await estimateUserOperationGas({
    chain,
    userOperation: {
      sender: op.sender,
      nonce: op.nonce,
      initCode: op.initCode,
      callData: op.callData,
      maxFeePerGas: op.maxFeePerGas,
      maxPriorityFeePerGas: op.maxPriorityFeePerGas,
      paymasterAndData: paymaster?.placeholder ?? '0x',
      signature: op.signature ?? '0x',
    },
    gasFees,
    stateOverride: paymaster?.stateOverride,
    preparePaymasterAndData: paymaster?.sign,
  })
  const min = params.minVerificationGasLimit ?? 0n
  return {
    callGasLimit: estimate.callGasLimit,
    verificationGasLimit: estimate.verificationGasLimit > min ? estimate.verificationGasLimit : min,
    preVerificationGas: estimate.preVerificationGas,
  }
}
