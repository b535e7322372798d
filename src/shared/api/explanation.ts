import type { Address, Hex } from 'viem'

/**
 * The explanation of one UserOperation (opstation_traceUserOperation, opstation_simulateUserOperation): the
 * service builds it (src/main/service/explain/), the console shows it, and startOpstation()'s `explain` returns it.
 */

/** An operation's phases, in the EntryPoint's order. */
export type UserOperationPhase =
  | 'deployment'
  | 'account-validation'
  | 'paymaster-validation'
  | 'execution'
  | 'postOp'

/** Why a frame failed, decoded from its revert data (or told by the node: out of gas). */
export type DecodedReason = {
  kind: 'error-string' | 'panic' | 'custom-error' | 'empty' | 'out-of-gas' | 'unknown'
  /** One line: `InsufficientBalance(5, 7)`, `Panic(0x11): arithmetic overflow or underflow`, `out of gas`. */
  text: string
  /** The error's name (`Error`, `Panic`, a custom error's), when decoded. */
  name?: string
  /** Its arguments, numbers as decimal strings. */
  args?: unknown[]
  /** The revert data as the frame returned it. */
  data: Hex
}

/** One call of the tree, decoded where the callee's ABI is known (else its raw input). */
export type ExplainedCall = {
  type: string
  from: Address
  to: Address | null
  /** The callee's name where the service knows it (EntryPoint, zoo account, registered contract, own paymaster). */
  contract: string | null
  /** `withdraw(uint256)` where decoded; null for an unknown contract or selector (see `input`). */
  function: string | null
  args?: unknown[]
  /** The raw calldata, kept when the call is not decoded. */
  input?: Hex
  value: string
  gas: string
  gasUsed: string
  /** The node's error for the frame (`execution reverted`, `out of gas`), null when it succeeded. */
  error: string | null
  reason?: DecodedReason
  calls: ExplainedCall[]
}

/** Where and why a phase failed: the frame the failure started in. */
export type PhaseError = {
  address: Address | null
  contract: string | null
  function: string | null
  /** One line: the decoded reason, or what ran out of gas and which limit to raise. */
  reason: string
  revert: DecodedReason
  /** For an out-of-gas halt: the operation's field to raise. */
  raise?: string
}

export type ExplainedPhase = {
  name: UserOperationPhase
  gasUsed: string
  gasLimit: string
  /** The operation's field that bounds the phase. */
  limitField: string
  /** The share of the limit left unused, in percent (one decimal). */
  headroomPercent: number
  outcome: 'ok' | 'reverted' | 'out of gas'
  error?: PhaseError
  /**
   * Account and paymaster validation: the signature verdict of the validationData it returned (`missing`: simulated
   * without a signature, a stand-in in its place).
   */
  signature?: SignatureVerdict
  /** The signature aggregator the account's validationData named, if any. */
  aggregator?: Address
  /** Account and paymaster validation: the window its validationData gave. */
  validity?: ValidityWindow
}

export type SignatureVerdict = 'valid' | 'invalid' | 'missing'

/** A validity window from validationData: in seconds, or (v0.9, top bits set) in block numbers. */
export type ValidityWindow = {
  unit: 'timestamp' | 'block'
  /** Valid after this timestamp or block (0: from the start). */
  validAfter: string
  /** Valid up to this timestamp or block; null: no expiry. */
  validUntil: string | null
  /** The timestamp or block number it was checked against: the bundle's block, or the latest for a simulation. */
  checkedAt: string | null
  /** Where checkedAt falls; null when it is not known. */
  state: 'valid' | 'not yet valid' | 'expired' | null
}

/** One part of the preVerificationGas figure (entryPoint/estimation/preVerificationGas.ts). */
export type PreVerificationGasPart = { name: string; gas: number }

/** An operation's EIP-7702 authorization (`eip7702Auth`), checked as the chain applies one. */
export type AuthorizationCheck = {
  /** The address it delegates the sender to. */
  address: Address
  chainId: string
  nonce: string
  /** Who signed it (recovered from its signature); null when it does not recover. */
  signer: Address | null
  /**
   * Mined: whether the sender's code delegates to `address` after its bundle; simulated: whether it would be applied
   * now; null when it cannot be told.
   */
  applied: boolean | null
  /** Why it was not (or would not be) applied: its signer, chain id or nonce, or a delegation already in place. */
  reasons: string[]
  /** The address the sender delegated to before (null: none, a plain EOA). */
  delegatedBefore: Address | null
}

/** The limits an operation carried against what it used, and its preVerificationGas broken into its parts. */
export type GasAccount = {
  /** Every gas limit the operation carried, by its field (decimal). */
  limits: Record<string, string>
  /** The limits summed. */
  limitTotal: string
  /** From the UserOperationEvent (what the EntryPoint charged for); null when the operation did not get that far. */
  actualGasUsed: string | null
  actualGasCost: string | null
  /** actualGasUsed against limitTotal, in percent (one decimal). */
  usedPercent: number | null
  preVerificationGas: {
    carried: string
    /** What this service's calculator asks of the operation (its estimate). */
    calculated: string
    calculator: string
    /** The parts of `calculated`; they add up to it before its rounding up. */
    parts: PreVerificationGasPart[]
  }
}

export type ExplainedEvent = {
  address: Address
  contract: string | null
  /** Null when no known ABI has the event (see `topics` and `data`). */
  name: string | null
  args?: Record<string, unknown> | unknown[]
  topics?: Hex[]
  data?: Hex
}

export type BalanceChange = {
  address: Address
  contract: string | null
  /** `ETH`, or the token's address. */
  asset: string
  symbol?: string
  /** Null when the token's balanceOf did not answer. */
  before: string | null
  after: string | null
  delta: string
}

export type ExplanationStatus =
  | 'mined'
  | 'reverted'
  | 'rejected'
  | 'dropped'
  | 'pending'
  | 'would-succeed'
  | 'would-revert'

/** The account of one UserOperation: its phases, call tree, events and balance changes. */
export type Explanation = {
  userOpHash: Hex
  entryPoint: Address
  status: ExplanationStatus
  /** One line: why it failed (or was rejected), when it did. */
  reason: string | null
  transactionHash: Hex | null
  blockNumber: string | null
  phases: ExplainedPhase[]
  /** The traced call (handleOps), decoded; null when the operation was never in a transaction or simulation. */
  calls: ExplainedCall | null
  events: ExplainedEvent[]
  balanceChanges: BalanceChange[]
  /** Estimates against use; null when the operation is no longer recorded. */
  gas: GasAccount | null
  /** EIP-7702 (v0.7+): the operation's authorization and whether it took effect; absent without one. */
  authorization?: AuthorizationCheck
  /** What this answer cannot show, and why. */
  notes: string[]
}
