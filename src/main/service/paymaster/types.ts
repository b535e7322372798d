import type { Address } from 'viem'
import type { PaymasterMode } from '../entryPoint'

/** The second param of pm_sponsorUserOperation / pm_getFeeQuoteOrData (and the ERC-7677 context), parsed. */
export type PaymasterContext = {
  mode: PaymasterMode
  /** The EntryPoint named in the context (Biconomy's methods carry none in their params). */
  entryPoint: Address | undefined
  calculateGasLimits: boolean
  /** Seconds the signature stays valid. */
  expiryDuration: number
  webhookData: Record<string, unknown> | undefined
  smartAccountInfo: { name?: string; version?: string } | undefined
  feeTokenAddress: string | undefined
  preferredToken: string | undefined
  tokenList: string[] | undefined
}
