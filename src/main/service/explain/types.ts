import type { Address, Hex } from 'viem'
import type { CallFrame } from '../entryPoint/estimation/callFrame'
import type { UserOperationPhase } from '../entryPoint/types'

export type { UserOperationPhase }

/** One frame of the node's `callTracer` with `withLog`: the estimation's call frame, with its logs. */
export type TracedFrame = Omit<CallFrame, 'calls'> & {
  /** `position`: how many calls the frame had made before the log (geth's callTracer; anvil's too). */
  logs?: { address: Address; topics: Hex[]; data: Hex; position?: Hex | number }[]
  calls?: TracedFrame[]
}

export type {
  AuthorizationCheck,
  BalanceChange,
  DecodedReason,
  ExplainedCall,
  ExplainedEvent,
  ExplainedPhase,
  Explanation,
  ExplanationStatus,
  GasAccount,
  PhaseError,
  PreVerificationGasPart,
  SignatureVerdict,
  ValidityWindow,
} from '../../../shared/explanation'
