import { type Abi, concat, decodeFunctionData, zeroAddress } from 'viem'
import { entryPointAbi } from '../../chain/abis/entryPoint'
import { canonicalAddresses } from '../../chain/constants'
import { getVersionContracts } from '../../chain/versionContracts'
import { toHexQuantity } from '../../schemas/hexSchemas'
import { parseParam } from '../../schemas/parseParam'
import { invalidFields } from '../errors'
import type { EntryPointModule } from '../types'
import { readValidationData } from '../validationData'
import { paymasterV06 } from './bindPaymaster'
import { breakDownPreVerificationGas, calculatePreVerificationGas } from './calculatePreVerificationGas'
import { computeUserOpHash } from './computeUserOpHash'
import { decodeValidationOutput } from './decodeValidationOutput'
import { encodeHandleOps, encodeSimulateHandleOp, encodeSimulateValidation } from './encodeEntryPointCalls'
import { estimateUserOperationGas, simulateExecution } from './estimateUserOperationGas'
import { readEntities } from './readEntities'
import { simulateValidation } from './simulateValidation'
import { phaseGasLimitsV06, traceLayoutV06 } from './traceLayout'
import type { UserOperationV06 } from './userOperation'
import {
  fromWireUserOperation,
  GAS_AND_FEE_FIELDS,
  PartialUserOperationSchema,
  toWireUserOperation,
  UserOperationSchema,
  type WireUserOperation,
} from './userOperation'

const UINT120_MAX = (1n << 120n) - 1n

/**
 * Gas a v0.6 handleOps transaction must carry for one operation: its validation (up to verificationGasLimit), then
 * the EntryPoint insists on callGasLimit + verificationGasLimit + 5000 left before executing it (else the
 * whole bundle fails with AA95), plus a third verificationGasLimit for a paymaster's postOp.
 */
function bundleGasOf(op: UserOperationV06): bigint {
  const multiplier = op.paymasterAndData.length >= 42 ? 3n : 2n
  return op.preVerificationGas + op.verificationGasLimit * multiplier + op.callGasLimit + 10_000n
}

/**
 * EntryPoint v0.6: `UserOperation` with initCode and paymasterAndData, simulations on the EntryPoint itself
 * (they revert with their result). The bundler's first version, kept exactly as it was.
 */
export const entryPointV06: EntryPointModule<UserOperationV06> = {
  version: '0.6',
  bundlesFromPlainEoa: false,
  blockRanges: false,
  address: canonicalAddresses.entryPoint,
  abi: entryPointAbi as Abi,
  contracts: (chain) => getVersionContracts(chain, '0.6'),
  paymaster: paymasterV06,
  recognizes: (fields) => 'initCode' in fields || 'paymasterAndData' in fields,
  userOperationSchema: UserOperationSchema,
  partialUserOperationSchema: PartialUserOperationSchema,
  toWire: toWireUserOperation,
  deploymentFields: (deployment) => ({
    initCode: deployment ? concat([deployment.factory, deployment.factoryData]) : '0x',
    paymasterAndData: '0x',
  }),
  fromWire: (wire) => fromWireUserOperation(wire as WireUserOperation),
  computeUserOpHash: (op, chainId) => computeUserOpHash(op, chainId, canonicalAddresses.entryPoint),
  readEntities,
  traceLayout: traceLayoutV06,
  phaseGasLimits: phaseGasLimitsV06,
  readValidationData: (data) => readValidationData(data),
  deploysAccount: (op) => op.initCode !== '0x',
  bundleGasOf,
  calculatePreVerificationGas: (op) => calculatePreVerificationGas({ userOperation: op }),
  breakDownPreVerificationGas: (op) => breakDownPreVerificationGas({ userOperation: op }),
  // The estimate without paymasterAndData (see calculatePreVerificationGas's includePaymasterAndData).
  minimumPreVerificationGas: (op) =>
    calculatePreVerificationGas({ userOperation: op, includePaymasterAndData: false }),
  checkFields(op) {
    if (op.initCode !== '0x' && op.initCode.length < 42)
      throw invalidFields('initCode must be empty or start with a 20-byte factory address')
    if (op.paymasterAndData !== '0x' && op.paymasterAndData.length < 42)
      throw invalidFields('paymasterAndData must be empty or start with a 20-byte paymaster address')
    for (const field of GAS_AND_FEE_FIELDS) {
      if (op[field] > UINT120_MAX)
        throw invalidFields(`AA94 gas values overflow: ${field} does not fit in 120 bits`)
    }
  },
  encodeHandleOps,
  async decodeBundle(_, { input }) {
    const { functionName, args } = decodeFunctionData({ abi: entryPointAbi, data: input })
    if (functionName !== 'handleOps') throw new Error(`not a handleOps call: ${functionName}`)
    return [...(args[0] as readonly UserOperationV06[])]
  },
  simulateValidation,
  validationCall: (op, gas, stateOverride) => ({
    request: { to: canonicalAddresses.entryPoint, data: encodeSimulateValidation(op), gas },
    stateOverride,
  }),
  simulateHandleOpCall: (op, gas, stateOverride) => ({
    request: { to: canonicalAddresses.entryPoint, data: encodeSimulateHandleOp(op, zeroAddress, '0x'), gas },
    stateOverride,
  }),
  decodeValidationOutput,
  // v0.6 has no errors of its own besides FailedOp.
  readEntryPointError: () => null,
  /**
   * In the shape of spec section 2.3 as the Biconomy SDK v4 reads it: limits as JSON numbers, fees as decimal
   * strings, validUntil / validAfter as 0x-hex strings (never the `{type:'BigNumber'}` objects it cannot parse).
   */
  async estimateUserOperationGas({ chain, userOperation, gasFees, stateOverride, maxSimulationGas }) {
    const estimate = await estimateUserOperationGas({
      chain,
      userOperation: parseParam(PartialUserOperationSchema, userOperation, 'params[0]'),
      gasFees,
      stateOverride,
      maxSimulationGas,
    })
    return {
      callGasLimit: Number(estimate.callGasLimit),
      verificationGasLimit: Number(estimate.verificationGasLimit),
      preVerificationGas: Number(estimate.preVerificationGas),
      validUntil: toHexQuantity(estimate.validUntil === 0 ? 0xffff_ffff_ffff : estimate.validUntil),
      validAfter: toHexQuantity(estimate.validAfter),
      maxPriorityFeePerGas: estimate.maxPriorityFeePerGas.toString(),
      maxFeePerGas: estimate.maxFeePerGas.toString(),
    }
  },
  simulateExecution: (chain, userOperation, maxSimulationGas) =>
    simulateExecution({ chain, userOperation, maxSimulationGas }),
  checkAccount: async () => {},
  planBundle: async () => ({ authorizationList: [], invalid: [] }),
}
