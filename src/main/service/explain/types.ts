import type { Address, Hex } from 'viem'
import type { CallFrame } from '../entryPoint/estimation/callFrame'

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
  UserOperationPhase,
  ValidityWindow,
} from '../../../shared/api/explanation'

/** One frame of the node's `callTracer` with `withLog`: the estimation's call frame, with its logs. */
export type TracedFrame = Omit<CallFrame, 'calls'> & {
  /** `position`: how many calls the frame had made before the log (geth's callTracer; anvil's too). */
  logs?: { address: Address; topics: Hex[]; data: Hex; position?: Hex | number }[]
  calls?: TracedFrame[]
}
