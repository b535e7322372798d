import type { Address, Hex } from 'viem'

/** One frame of geth's `callTracer` output (debug_traceCall). */
export type CallFrame = {
  type: string
  from: Address
  to?: Address
  gas: Hex
  gasUsed: Hex
  input: Hex
  output?: Hex
  error?: string
  revertReason?: string
  value?: Hex
  calls?: CallFrame[]
}
