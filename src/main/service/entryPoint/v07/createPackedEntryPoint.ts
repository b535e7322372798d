import { type Abi, type Address, type Hash, type Hex, type RpcStateOverride, zeroAddress } from 'viem'
import type { z } from 'zod'
import { mergeStateOverride } from '../../chain/node/mergeStateOverride'
import type { Chain } from '../../chain/types'
import { getVersionContracts } from '../../chain/versionContracts'
import { toHexQuantity } from '../../schemas/hexSchemas'
import { parseParam } from '../../schemas/parseParam'
import { executionReverted, invalidFields } from '../errors'
import {
  breakDownPackedPreVerificationGas,
  breakDownPreVerificationGasOfEncoded,
  FEE_FIELD_PLACEHOLDER,
  GAS_FIELD_PLACEHOLDER,
  MIN_SIGNATURE_LENGTH,
  nonZeroBytesOfLength,
  packedPreVerificationGas,
} from '../estimation/preVerificationGas'
import type { EntryPointErrorReading, EntryPointModule, EntryPointVersion } from '../types'
import { MAX_PAYMASTER_SIGNATURE_BYTES } from '../v09/paymasterSignature'
import { readValidationData } from '../validationData'
import { createPaymasterV07 } from './bindPaymaster'
import {
  attachEip7702Delegations,
  checkEip7702Authorization,
  delegationCode,
  planEip7702Bundle,
} from './eip7702'
import {
  decodeHandleOpsV07,
  encodeHandleOpsV07,
  encodeSimulateHandleOpV07,
  encodeSimulateValidationV07,
} from './encodeEntryPointCalls'
import { encodePackedUserOperationTuple } from './encodePackedUserOperationTuple'
import {
  type EstimateUserOperationGasV07Parameters,
  type EstimateUserOperationGasV07ReturnType,
  estimateUserOperationGasV07,
} from './estimateUserOperationGas'
import { type PackedUserOperation, packUserOperation, unpackUserOperation } from './packUserOperation'
import {
  decodeValidationOutputV07,
  type SimulationTarget,
  simulateValidationV07,
  withSimulationCode,
} from './simulateEntryPoint'
import { createTraceLayoutV07, phaseGasLimitsV07 } from './traceLayout'
import {
  EIP7702_FACTORY_MARKER,
  type PartialUserOperationV07,
  PartialUserOperationV07Schema,
  toWireUserOperationV07,
  type UserOperationV07,
  UserOperationV07Schema,
} from './userOperation'

export type CreatePackedEntryPointParameters = {
  version: PackedVersion
  address: Address
  abi: Abi
  /** Runtime code of the version's EntryPointSimulations (put at the EntryPoint's address to simulate). */
  simulationsCode: Hex
  computeUserOpHash: (
    packed: PackedUserOperation,
    chainId: number,
    entryPoint: Address,
    op: UserOperationV07,
  ) => Hash
  /**
   * v0.8+: the EntryPoint knows EIP-7702 accounts: the `0x7702` factory marker (factoryData runs on the delegated
   * account) and the userOpHash covering the delegate. Every packed version takes an `eip7702Auth` (the bundler carries
   * it in the type-4 bundle transaction; v0.7's EntryPoint never sees it): without the marker it only delegates.
   */
  eip7702InitCode: boolean
  /** v0.9: operations may carry a `paymasterSignature`, packed after paymasterData and left out of the hash. */
  paymasterSignature?: boolean
  /** v0.9: handleOps only from a plain EOA (`tx.origin == msg.sender`, no code). */
  bundlesFromPlainEoa?: boolean
  /** v0.9: validity windows with the top bit of validAfter and validUntil set are block numbers. */
  blockRanges?: boolean
  /** v0.9: its custom errors besides FailedOp, read with what they mean (none before). */
  readEntryPointError?: (revertData: Hex) => EntryPointErrorReading | null
  /**
   * v0.9: the checks handleOps makes of the paymaster's fields before any contract runs (a paymaster of address
   * zero, a paymaster signature length past the data), made by every surface before simulating (throws the client's
   * error, entryPoint/errors.ts `entryPointErrorRejected`).
   */
  checkPaymasterFields?: (op: UserOperationV07) => void
}

/** The versions that take `PackedUserOperation`. */
type PackedVersion = Extract<EntryPointVersion, '0.7' | '0.8' | '0.9'>

/**
 * A v0.7/v0.8/v0.9 module with what its paymaster binding (bindPaymaster.ts) needs beyond the seam: the partial operation
 * schema's type and the estimator with a paymaster whose data is signed for every trial operation.
 */
export type PackedEntryPointModule = EntryPointModule<UserOperationV07> & {
  readonly version: PackedVersion
  /** v0.9: its paymasters take their signature from paymasterSignature (`contracts/packed/v09/`). */
  readonly signsPaymasterSignature: boolean
  readonly partialUserOperationSchema: z.ZodType<PartialUserOperationV07, unknown>
  estimateGas(
    params: Omit<
      EstimateUserOperationGasV07Parameters,
      'target' | 'calculatePreVerificationGas' | 'withAccountState'
    >,
  ): Promise<EstimateUserOperationGasV07ReturnType>
}

/** Fields only a v0.7 / v0.8 UserOperation has (ERC-7769). */
const PACKED_ONLY_FIELDS = [
  'factory',
  'factoryData',
  'paymaster',
  'paymasterData',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
]
const UINT128_MAX = (1n << 128n) - 1n
/** Gas of an EIP-7702 authorization in the bundle transaction (PER_EMPTY_ACCOUNT_COST), paid through pvg. */
export const EIP7702_AUTHORIZATION_GAS = 25_000n

/** `abi.encode(op)` as preVerificationGas prices it (hex without 0x): the tuple's offset word, then the tuple. */
function encodeForPreVerificationGas(packed: PackedUserOperation): string {
  return `${'0'.repeat(62)}20${encodePackedUserOperationTuple(packed)}`
}

/**
 * The shared implementation of the EntryPoints that take `PackedUserOperation` (v0.7, v0.8 and v0.9): the RPC
 * operation is unpacked (ERC-7769 fields), packed for every call to the EntryPoint, and simulated through
 * EntryPointSimulations' code put at the EntryPoint's address. Each takes EIP-7702 accounts (an `eip7702Auth`, carried
 * in the bundle's type-4 transaction and applied first by every simulation); v0.8 differs in its hash (EIP-712) and in
 * knowing EIP-7702 accounts itself (the `0x7702` factory marker); v0.9 adds paymasterSignature, block-number validity
 * windows and a plain-EOA bundle sender.
 */
export function createPackedEntryPoint(p: CreatePackedEntryPointParameters): PackedEntryPointModule {
  const readEntryPointError = p.readEntryPointError ?? (() => null)
  const checkPaymasterFields = p.checkPaymasterFields ?? (() => {})
  const target: SimulationTarget = {
    address: p.address,
    simulationsCode: p.simulationsCode,
    readEntryPointError,
  }
  const unpack = (packed: PackedUserOperation) =>
    unpackUserOperation(packed, { paymasterSignature: p.paymasterSignature ?? false })
  /** A paymasterSignature only where the version has one, and no longer than its 2-byte length names. */
  const refinePaymasterSignature = (op: { paymasterSignature?: Hex }, ctx: z.RefinementCtx) => {
    if (!op.paymasterSignature) return
    if (!p.paymasterSignature)
      ctx.addIssue({
        code: 'custom',
        path: ['paymasterSignature'],
        message: `EntryPoint v${p.version} takes no paymasterSignature (v0.9 does)`,
      })
    else if ((op.paymasterSignature.length - 2) / 2 > MAX_PAYMASTER_SIGNATURE_BYTES)
      ctx.addIssue({
        code: 'custom',
        path: ['paymasterSignature'],
        message: `paymasterSignature is longer than ${MAX_PAYMASTER_SIGNATURE_BYTES} bytes`,
      })
  }
  /**
   * v0.7's EntryPoint knows no `0x7702` marker (it would call it as a factory); an account that an authorization
   * delegates has code by the time handleOps runs, so a factory in its operation is the EntryPoint's AA10.
   */
  const refineEip7702Factory = (
    op: { factory?: Address | null; eip7702Auth?: unknown },
    ctx: z.RefinementCtx,
  ) => {
    if (op.factory === EIP7702_FACTORY_MARKER && !p.eip7702InitCode)
      ctx.addIssue({
        code: 'custom',
        path: ['factory'],
        message: `EntryPoint v${p.version} takes no 0x7702 factory (v0.8 does); an EIP-7702 account's operation names no factory here`,
      })
    else if (op.factory && op.factory !== EIP7702_FACTORY_MARKER && op.eip7702Auth)
      ctx.addIssue({
        code: 'custom',
        path: ['factory'],
        message: `an operation with an eip7702Auth names no factory${p.eip7702InitCode ? ' (or the 0x7702 marker)' : ''}: the authorization gives the account its code before the EntryPoint runs, which then refuses a factory (AA10 sender already constructed)`,
      })
  }

  const schema = UserOperationV07Schema.superRefine((op, ctx) => {
    refinePaymasterSignature(op, ctx)
    if (op.factory === EIP7702_FACTORY_MARKER && p.eip7702InitCode && !op.eip7702Auth)
      ctx.addIssue({
        code: 'custom',
        path: ['eip7702Auth'],
        message: 'the 0x7702 factory marker needs the eip7702Auth authorization',
      })
    refineEip7702Factory(op, ctx)
  })

  /** Simulations see the account's delegation before the bundle transaction sets it. */
  const withDelegation = (
    op: UserOperationV07,
    stateOverride?: RpcStateOverride,
  ): RpcStateOverride | undefined =>
    op.eip7702Auth
      ? mergeStateOverride(stateOverride, op.sender, { code: delegationCode(op.eip7702Auth.address) })
      : stateOverride

  const readEntities = (op: UserOperationV07) => ({
    sender: op.sender.toLowerCase() as Address,
    factory:
      op.factory && op.factory !== EIP7702_FACTORY_MARKER ? (op.factory.toLowerCase() as Address) : null,
    paymaster: op.paymaster ? (op.paymaster.toLowerCase() as Address) : null,
  })

  /**
   * The estimate: the operation with wide stand-ins for its gas fields and non-zero bytes for its signatures and
   * paymaster data (so it holds whatever values are signed later), priced by both calculators, whichever asks more:
   * the v0.6-era one every version shares, and the reference bundler's EIP-7623 one with no gas counted as used yet.
   */
  const breakDownPreVerificationGas: EntryPointModule<UserOperationV07>['breakDownPreVerificationGas'] = (
    op,
  ) => {
    const signatureLength = Math.max(MIN_SIGNATURE_LENGTH, (op.signature.length - 2) / 2)
    const packed = packUserOperation({
      ...op,
      callGasLimit: GAS_FIELD_PLACEHOLDER,
      verificationGasLimit: GAS_FIELD_PLACEHOLDER,
      preVerificationGas: GAS_FIELD_PLACEHOLDER,
      maxFeePerGas: FEE_FIELD_PLACEHOLDER,
      maxPriorityFeePerGas: FEE_FIELD_PLACEHOLDER,
      paymasterVerificationGasLimit: GAS_FIELD_PLACEHOLDER,
      paymasterPostOpGasLimit: GAS_FIELD_PLACEHOLDER,
      // Non-zero bytes of its length, like the signature: stub data and the final signed data differ in their bytes.
      paymasterData: nonZeroBytesOfLength(op.paymasterData),
      ...(op.paymasterSignature ? { paymasterSignature: nonZeroBytesOfLength(op.paymasterSignature) } : {}),
      signature: `0x${'ff'.repeat(signatureLength)}` as Hex,
    })
    const encoded = encodeForPreVerificationGas(packed)
    const shared = breakDownPreVerificationGasOfEncoded(encoded)
    if (op.eip7702Auth) {
      shared.parts.push({ name: 'EIP-7702 authorization', gas: Number(EIP7702_AUTHORIZATION_GAS) })
      shared.total += EIP7702_AUTHORIZATION_GAS
    }
    const eip7623 = breakDownPackedPreVerificationGas({
      encoded,
      callData: op.callData,
      gasUsed: 0n,
      eip7702: op.eip7702Auth != null,
    })
    return shared.total > eip7623.total ? shared : eip7623
  }
  const calculatePreVerificationGas: EntryPointModule<UserOperationV07>['calculatePreVerificationGas'] = (
    op,
  ) => breakDownPreVerificationGas(op).total

  /**
   * What admission asks of a signed operation: the reference bundler's EIP-7623 calculator over the operation as it
   * is, with 10 % of its call and postOp limits as gas it is known to use (ERC-4337's unused-gas penalty, which the
   * EntryPoint charges). Like v0.6's floor it leaves the paymaster's fields out: Biconomy's flow with
   * `calculateGasLimits: false` estimates without them, and the paymaster then signs those limits unchanged. Never
   * more than the estimate of the same operation.
   */
  const minimumPreVerificationGas: EntryPointModule<UserOperationV07>['minimumPreVerificationGas'] = (op) =>
    packedPreVerificationGas({
      encoded: encodeForPreVerificationGas(
        packUserOperation({ ...op, paymaster: null, paymasterSignature: undefined }),
      ),
      callData: op.callData,
      gasUsed: (op.callGasLimit + op.paymasterPostOpGasLimit) / 10n,
      eip7702: op.eip7702Auth != null,
    })

  const partialSchema = PartialUserOperationV07Schema.superRefine((op, ctx) => {
    refinePaymasterSignature(op, ctx)
    refineEip7702Factory(op, ctx)
  })

  const module: Omit<PackedEntryPointModule, 'paymaster'> = {
    version: p.version,
    address: p.address,
    abi: p.abi,
    bundlesFromPlainEoa: p.bundlesFromPlainEoa ?? false,
    blockRanges: p.blockRanges ?? false,
    signsPaymasterSignature: p.paymasterSignature ?? false,
    traceLayout: createTraceLayoutV07(p.abi),
    phaseGasLimits: phaseGasLimitsV07,
    readValidationData: (data) => readValidationData(data, { blockRanges: p.blockRanges ?? false }),
    contracts: (chain) => getVersionContracts(chain, p.version),
    // v0.9 is told by its paymasterSignature; v0.8 by its eip7702Auth (v0.7 takes one too, but a request that names
    // no EntryPoint and carries one is taken as v0.8's, as before); v0.7 by any field only the packed form has.
    recognizes: (fields) =>
      p.paymasterSignature
        ? fields.paymasterSignature != null
        : p.eip7702InitCode
          ? fields.eip7702Auth != null
          : fields.eip7702Auth == null && PACKED_ONLY_FIELDS.some((field) => fields[field] != null),
    userOperationSchema: schema,
    partialUserOperationSchema: partialSchema,
    estimateGas: (params) => {
      checkPaymasterFields(params.userOperation)
      return estimateUserOperationGasV07({
        ...params,
        target,
        calculatePreVerificationGas: (o) => calculatePreVerificationGas(o),
        withAccountState: withDelegation,
      })
    },
    toWire: toWireUserOperationV07,
    deploymentFields: (deployment) =>
      deployment ? { factory: deployment.factory, factoryData: deployment.factoryData } : {},
    fromWire: (wire) => schema.parse(wire),
    computeUserOpHash: (op, chainId) => p.computeUserOpHash(packUserOperation(op), chainId, p.address, op),
    readEntities,
    deploysAccount: (op) => op.factory !== null,
    bundleGasOf: (op) =>
      op.preVerificationGas +
      op.verificationGasLimit +
      op.paymasterVerificationGasLimit +
      op.callGasLimit +
      op.paymasterPostOpGasLimit +
      10_000n +
      (op.eip7702Auth ? EIP7702_AUTHORIZATION_GAS : 0n),

    calculatePreVerificationGas,
    breakDownPreVerificationGas,
    minimumPreVerificationGas,

    checkFields(op) {
      for (const field of [
        'callGasLimit',
        'verificationGasLimit',
        'maxFeePerGas',
        'maxPriorityFeePerGas',
        'paymasterVerificationGasLimit',
        'paymasterPostOpGasLimit',
      ] as const) {
        if (op[field] > UINT128_MAX) throw invalidFields(`${field} does not fit in 128 bits`)
      }
      checkPaymasterFields(op)
    },

    encodeHandleOps: (ops, beneficiary) => encodeHandleOpsV07(ops.map(packUserOperation), beneficiary),
    async decodeBundle(chain, transaction) {
      const ops = decodeHandleOpsV07(transaction.input).map(unpack)
      return p.eip7702InitCode
        ? attachEip7702Delegations(chain, ops, transaction.authorizationList ?? [])
        : ops
    },

    simulateValidation: (chain: Chain, op, options = {}) =>
      simulateValidationV07(chain, target, encodeSimulateValidationV07(packUserOperation(op)), {
        ...options,
        blockRanges: p.blockRanges ?? false,
        stateOverride: withDelegation(op, options.stateOverride),
      }),

    validationCall: (op, gas, stateOverride) => ({
      request: { to: p.address, data: encodeSimulateValidationV07(packUserOperation(op)), gas },
      stateOverride: withSimulationCode(target, withDelegation(op, stateOverride)),
    }),

    simulateHandleOpCall: (op, gas, stateOverride) => ({
      request: {
        to: p.address,
        data: encodeSimulateHandleOpV07(packUserOperation(op), zeroAddress, '0x'),
        gas,
      },
      stateOverride: withSimulationCode(target, withDelegation(op, stateOverride)),
    }),

    decodeValidationOutput: (output) =>
      decodeValidationOutputV07(output, { blockRanges: p.blockRanges ?? false, readEntryPointError }),
    readEntryPointError,

    /** ERC-7769's v0.7 shape: every limit as 0x-hex, the paymaster's two only with a paymaster. */
    async estimateUserOperationGas({ chain, userOperation, gasFees, stateOverride, maxSimulationGas }) {
      const op = parseParam(partialSchema, userOperation, 'params[0]')
      checkPaymasterFields(op)
      const estimate = await estimateUserOperationGasV07({
        chain,
        target,
        userOperation: op,
        gasFees,
        stateOverride,
        maxSimulationGas,
        calculatePreVerificationGas: (o) => calculatePreVerificationGas(o),
        withAccountState: withDelegation,
      })
      return {
        preVerificationGas: toHexQuantity(estimate.preVerificationGas),
        verificationGasLimit: toHexQuantity(estimate.verificationGasLimit),
        callGasLimit: toHexQuantity(estimate.callGasLimit),
        ...(op.paymaster
          ? {
              paymasterVerificationGasLimit: toHexQuantity(estimate.paymasterVerificationGasLimit),
              paymasterPostOpGasLimit: toHexQuantity(estimate.paymasterPostOpGasLimit),
            }
          : {}),
        maxFeePerGas: toHexQuantity(estimate.maxFeePerGas),
        maxPriorityFeePerGas: toHexQuantity(estimate.maxPriorityFeePerGas),
        validAfter: toHexQuantity(estimate.validAfter),
        validUntil: toHexQuantity(estimate.validUntil === 0 ? 0xffff_ffff_ffff : estimate.validUntil),
      }
    },

    async simulateExecution(chain, op, maxSimulationGas) {
      // The operation exactly as sent: an estimate with its own limits must not need raising.
      const estimate = await estimateUserOperationGasV07({
        chain,
        target,
        userOperation: {
          ...op,
          given: { maxFeePerGas: op.maxFeePerGas, maxPriorityFeePerGas: op.maxPriorityFeePerGas },
        },
        gasFees: op,
        maxSimulationGas,
        calculatePreVerificationGas: () => op.preVerificationGas,
        withAccountState: withDelegation,
      })
      if (estimate.callGasLimit > op.callGasLimit)
        throw executionReverted('out of gas (callGasLimit too low)')
    },

    checkAccount: (chain, op) => checkEip7702Authorization(chain, op),

    async planBundle(chain, ops) {
      const plan = await planEip7702Bundle(chain, ops)
      let stateOverride: RpcStateOverride | undefined
      for (const op of ops) {
        const auth = op.eip7702Auth
        if (
          auth &&
          plan.authorizationList.some((a) => a.address === auth.address && a.nonce === Number(auth.nonce))
        )
          stateOverride = withDelegation(op, stateOverride)
      }
      return { ...plan, stateOverride }
    },
  }
  return { ...module, paymaster: createPaymasterV07(module) }
}

export { withSimulationCode }
