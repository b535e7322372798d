import type { Address, Hex } from 'viem'

export type PaymasterMode = 'SPONSORED' | 'ERC20'

/** A UserOperation (v0.6) as a paymaster request carries it: gas limits and fees may be missing. */
export type PartialUserOperation = {
  sender: Address
  nonce: bigint
  initCode: Hex
  callData: Hex
  callGasLimit?: bigint
  verificationGasLimit?: bigint
  preVerificationGas?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  paymasterAndData?: Hex
  signature?: Hex
}

/** The fields a paymaster signs over (everything except paymasterAndData and signature). */
export type SignableUserOperation = {
  sender: Address
  nonce: bigint
  initCode: Hex
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

export type GasLimits = {
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  /** EntryPoint v0.7+ with a paymaster: the paymaster's own two limits. */
  paymasterVerificationGasLimit?: bigint
  paymasterPostOpGasLimit?: bigint
}

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

/** The sponsor result of spec 2.6 before wire encoding (v0.7+: with the paymaster's ERC-7769 fields). */
export type SponsorResult = GasLimits & {
  mode: PaymasterMode
  paymasterAndData: Hex
  paymasterFields?: PackedPaymasterFields
}

/** How a v0.7+ operation carries its paymaster (ERC-7769); packed, they are its paymasterAndData. */
export type PackedPaymasterFields = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}
