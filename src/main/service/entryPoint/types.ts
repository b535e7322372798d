import type { Abi, Address, Hash, Hex, RpcStateOverride, SignedAuthorization } from 'viem'
import type { z } from 'zod'
import type { UserOperationPhase } from '../../../shared/api/explanation'
import type { EntryPointVersion } from '../../../shared/entryPointVersions'
import type { TraceCallRequest } from '../chain/node/traceCall'
import type { Chain, ChainAddresses } from '../chain/types'
import type { VersionContracts } from '../chain/versionContracts'
import type { PreVerificationGasBreakdown } from './estimation/preVerificationGas'
import type { PaymasterBinding } from './paymaster/sponsorableOperation'

/** The EntryPoint versions Opstation serves, one folder each (`v06/`, `v07/`, `v08/`); spelled in src/shared. */
export type { EntryPointVersion }

/** The fields every version's UserOperation has (numbers as bigint), which version-blind code may read. */
export type UserOperationBase = {
  sender: Address
  nonce: bigint
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  signature: Hex
}

/** An operation's entities, lowercase: the sender, and the factory and paymaster when it names them. */
export type UserOperationEntities = {
  sender: Address
  factory: Address | null
  paymaster: Address | null
}

/** A UserOperation in the ERC-4337 RPC form of its version (quantities as 0x-hex). */
export type WireUserOperation = Record<string, unknown>

/**
 * Everything that differs between EntryPoint versions, behind one shape: the RPC operation (schemas and wire
 * form), what an operation names (entities, gas), its hash, the calls made to the EntryPoint (handleOps and the
 * simulations) and how their results decode. The mempool, bundling, receipts, records and policies take a module
 * and never look at a version's fields themselves.
 */
export type EntryPointModule<Op extends UserOperationBase = UserOperationBase> = {
  // Method signatures (not function-typed properties): a module of one version's operation is usable where any
  // version's is expected, each module being called only with operations its own schema produced.
  readonly version: EntryPointVersion
  readonly address: Address
  readonly abi: Abi
  /** handleOps is taken only from a plain EOA (`tx.origin == msg.sender`, no code): v0.9's `nonReentrant`. */
  readonly bundlesFromPlainEoa: boolean
  /** validAfter and validUntil both with the top bit set are block numbers (v0.9); older versions read times only. */
  readonly blockRanges: boolean
  /**
   * The version's contracts on a chain, with their deployment names: its EntryPoint, its verifying paymaster (gas
   * tanks) and its token paymaster.
   */
  contracts(chain: { addresses: ChainAddresses }): VersionContracts
  /**
   * The fields of an operation are this version's form (how a paymaster request that names no EntryPoint is told
   * apart; checked newest version first).
   */
  recognizes(fields: Record<string, unknown>): boolean
  /** The paymaster side: binding a paymaster request's operation, the sponsor answer's form, the charge event. */
  readonly paymaster: PaymasterBinding
  /** A complete operation (eth_sendUserOperation). */
  readonly userOperationSchema: z.ZodType<Op, unknown>
  /**
   * A partial operation (eth_estimateUserOperationGas and every paymaster method): gas limits and fees may be left
   * out. The bundler and the paymaster parse with this one schema, so both URLs take the same operations.
   */
  readonly partialUserOperationSchema: z.ZodType<unknown, unknown>
  /** The RPC form (what eth_getUserOperationByHash returns, what records keep). */
  toWire(op: Op): WireUserOperation
  /**
   * The wire fields that deploy an account in its first operation (`null`: deployed already): v0.6's `initCode`
   * (factory ‖ factoryData, `0x` once deployed) with an empty `paymasterAndData`, v0.7+'s `factory` and `factoryData`.
   */
  deploymentFields(deployment: { factory: Address; factoryData: Hex } | null): WireUserOperation
  /** Reads a stored wire operation back (throws when it is not this version's shape). */
  fromWire(wire: WireUserOperation): Op
  computeUserOpHash(op: Op, chainId: number): Hash
  readEntities(op: Op): UserOperationEntities
  /** The operation deploys its account (initCode / factory; for EIP-7702, the delegation it carries). */
  deploysAccount(op: Op): boolean
  /** Gas a handleOps transaction must carry for this operation (every limit it may use, plus the EntryPoint's). */
  bundleGasOf(op: Op): bigint
  /** The calldata cost of the operation inside handleOps plus the bundle overheads. */
  calculatePreVerificationGas(op: Op): bigint
  /** calculatePreVerificationGas's figure with its parts, from the calculator that gave it (explain/ shows them). */
  breakDownPreVerificationGas(op: Op): PreVerificationGasBreakdown
  /** The least preVerificationGas eth_sendUserOperation takes of this signed operation (at most its estimate). */
  minimumPreVerificationGas(op: Op): bigint
  /** Field checks beyond the schema that the EntryPoint would reject (throws -32602). */
  checkFields(op: Op): void
  /** `handleOps(ops, beneficiary)` calldata. */
  encodeHandleOps(ops: readonly Op[], beneficiary: Address): Hex
  /** The operations of a mined handleOps transaction (for receipts and restart recovery). */
  decodeBundle(chain: Chain, transaction: BundleTransaction): Promise<Op[]>
  /** simulateValidation with eth_call, decoded. Throws FailedOpError / SimulationRevertedError. */
  simulateValidation(chain: Chain, op: Op, options?: SimulationOptions): Promise<ValidationResult>
  /** The call to trace for ERC-7562 (and the state override it needs: v0.7+ simulate through a code override). */
  validationCall(
    op: Op,
    gas: bigint,
    stateOverride?: RpcStateOverride,
  ): { request: TraceCallRequest; stateOverride?: RpcStateOverride }
  /**
   * The call to trace to run an operation whole even when a signature fails (explain/'s simulation of an unsigned
   * operation): `simulateHandleOp(op, 0, 0x)` (v0.6 on the EntryPoint, reverting with its ExecutionResult; v0.7+
   * EntryPointSimulations through a code override), which returns the signature verdict in validationData instead
   * of reverting.
   */
  simulateHandleOpCall(
    op: Op,
    gas: bigint,
    stateOverride?: RpcStateOverride,
  ): { request: TraceCallRequest; stateOverride?: RpcStateOverride }
  /** The traced validation's return or revert data, decoded; throws the client's rejection (FailedOp, ...). */
  decodeValidationOutput(output: Hex): ValidationResult
  /**
   * Revert data of the EntryPoint (or its simulation contract) that is one of the version's own errors besides
   * FailedOp (v0.9's custom errors), read with what it means; null for any other data and on versions without them.
   */
  readEntryPointError(revertData: Hex): EntryPointErrorReading | null
  /**
   * eth_estimateUserOperationGas: parses the partial operation (`params[0]`), estimates it by simulation and
   * returns the result in this version's RPC shape.
   */
  estimateUserOperationGas(params: EstimateParameters): Promise<Record<string, unknown>>
  /**
   * `validation_and_execution` (Biconomy SDK): simulates the operation as sent and throws -32521 when its call
   * phase reverts or runs out of gas.
   */
  simulateExecution(chain: Chain, op: Op, maxSimulationGas: bigint): Promise<void>
  /** eth_sendUserOperation's checks of the account's own state (v0.7+: an EIP-7702 authorization). */
  checkAccount(chain: Chain, op: Op): Promise<void>
  /**
   * Before a bundle is simulated and sent: the EIP-7702 authorizations its transaction carries (and the
   * delegations its simulation must see), and the operations that can no longer go, with the reason.
   */
  planBundle(chain: Chain, ops: readonly Op[]): Promise<BundlePlan>
  /** How an operation's phases show in a call trace of handleOps (explain/ reads them). */
  readonly traceLayout: TraceLayout
  /** The operation's limit that bounds each phase: the field to raise when the phase runs out of gas. */
  phaseGasLimits(op: Op): Record<UserOperationPhase, PhaseGasLimit>
  /**
   * A validationData word (what validateUserOp and validatePaymasterUserOp return) as this version reads it: the
   * signature verdict or aggregator, the time window, and for v0.9 a block range (both bounds with the top bit set).
   */
  readValidationData(data: bigint): ValidationDataReading
}

/** An operation's phases, in the EntryPoint's order (spelled in src/shared: the console shows them). */
export type { UserOperationPhase }

/**
 * An error of the EntryPoint's own besides FailedOp (v0.9's custom errors, where older versions had FailedOp strings
 * or nothing), read with what it means: the one classification every surface answers it with
 * (entryPoint/errors.ts `entryPointErrorRejected`).
 */
export type EntryPointErrorReading = {
  /** `InvalidPaymaster(0x…) (AA98 invalid paymaster)`: the error, its arguments, and the code or words it means. */
  text: string
  /** The FailedOp code it replaces (`AA98`), when it has one. */
  aaCode: string | null
  /** The phase it refuses the operation in; null when it is about the bundle, not the operation (Reentrancy). */
  phase: UserOperationPhase | null
  /**
   * Found by the EntryPoint's checks of the operation's fields before any of its contracts runs (a paymaster of
   * address zero, a malformed paymasterAndData): the client's fields are invalid (ERC-7769 -32602).
   */
  fields: boolean
  revertData: Hex
}

/** The wire field of the limit a phase runs within, and its value. */
export type PhaseGasLimit = { field: string; value: bigint }

/**
 * The selectors of the calls that bound an operation's phases in a handleOps trace: the SenderCreator's
 * `createSender` (deployment), the account's `validateUserOp`, the paymaster's `validatePaymasterUserOp`, the
 * EntryPoint's self-call `innerHandleOp` (holding the execution call to the sender and the paymaster's `postOp`).
 */
export type TraceLayout = {
  createSender: Hex
  validateUserOp: Hex
  validatePaymasterUserOp: Hex
  innerHandleOp: Hex
  postOp: Hex
}

/** A handleOps transaction as eth_getTransactionByHash returns it (the fields the decoders read). */
export type BundleTransaction = {
  input: Hex
  /** Type 4: the EIP-7702 authorizations it carried (quantities as 0x-hex). */
  authorizationList?: { address: Address; chainId: Hex; nonce: Hex; yParity: Hex; r: Hex; s: Hex }[]
}

export type BundlePlan = {
  authorizationList: SignedAuthorization[]
  /** The delegations the bundle's authorizations set, for simulating it before it is sent. */
  stateOverride?: RpcStateOverride
  invalid: { index: number; reason: string }[]
}

/** The fee fields of an operation (wei per gas). */
export type GasFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

export type EstimateParameters = {
  chain: Chain
  /** The partial operation as the client sent it (gas fields and fees may be missing). */
  userOperation: unknown
  /** Fees to simulate with where the operation has none. */
  gasFees: GasFees
  stateOverride?: RpcStateOverride
  /** Largest gas an eth_call may use (the block gas limit). */
  maxSimulationGas: bigint
}

/** What the service serves: one module per version, found by the EntryPoint address a client names. */
export type EntryPoints = {
  readonly list: readonly EntryPointModule[]
  /** The module of this EntryPoint address, or undefined when it is not served. */
  find: (address: Address) => EntryPointModule | undefined
  /** The module of this EntryPoint address; throws -32602 naming the served ones otherwise. */
  require: (address: Address) => EntryPointModule
  byVersion: (version: EntryPointVersion) => EntryPointModule
}

/** Options of an EntryPoint simulation made with eth_call. */
export type SimulationOptions = {
  /** geth-style state override set (RPC format) for the eth_call. */
  stateOverride?: RpcStateOverride
  blockTag?: 'latest' | 'pending'
  /** Extra ABI to decode custom errors with (e.g. a paymaster's). */
  extraAbi?: Abi
}

export type StakeInfo = { stake: bigint; unstakeDelaySec: bigint }

/** A validationData word, read (validUntil 0: no expiry; blockRange: the window is in block numbers instead). */
export type ValidationDataReading = {
  aggregator: bigint
  validAfter: number
  validUntil: number
  blockRange: BlockRange | null
}

/** A validity window in block numbers: valid in the blocks after `validAfterBlock` up to `validUntilBlock`. */
export type BlockRange = { validAfterBlock: number; validUntilBlock: number }

export type ValidationResult = {
  returnInfo: {
    preOpGas: bigint
    prefund: bigint
    sigFailed: boolean
    /** Which signature failed, where the EntryPoint tells (v0.7+ return each entity's validationData). */
    sigFailedBy?: 'account' | 'paymaster'
    validAfter: number
    validUntil: number
    /**
     * v0.9: the entities whose validity window is in block numbers (validAfter and validUntil both with the top bit
     * set), the bits below it; their windows are left out of validAfter/validUntil.
     */
    blockRanges?: { account?: BlockRange; paymaster?: BlockRange }
    paymasterContext: `0x${string}`
  }
  senderInfo: StakeInfo
  factoryInfo: StakeInfo
  paymasterInfo: StakeInfo
  /** Present when the account uses a signature aggregator (`ValidationResultWithAggregation`). */
  aggregatorInfo?: { aggregator: `0x${string}`; stakeInfo: StakeInfo }
}
