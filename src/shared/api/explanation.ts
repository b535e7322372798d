import type { Address, Hex } from 'viem'

/**
 * The account of one UserOperation (its phases, call tree, events and balance changes), as
 * opstation_traceUserOperation and opstation_simulateUserOperation answer it: the service builds it
 * (main/service/explain/), the console shows it.
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
  /** What this answer cannot show, and why. */
  notes: string[]
}
