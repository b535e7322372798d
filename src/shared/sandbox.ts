/**
 * The sandbox console API (`/console/api/sandbox/*`): local smart accounts whose owner keys the service
 * holds. The renderer never sees a private key; it asks the service to build and sign UserOperations.
 */

export const SANDBOX_ACCOUNT_TYPES = ['SMART_ACCOUNT_V2', 'SIMPLE_ACCOUNT'] as const
export type SandboxAccountType = (typeof SANDBOX_ACCOUNT_TYPES)[number]

export const SANDBOX_ACCOUNT_LABELS: Record<SandboxAccountType, string> = {
  SMART_ACCOUNT_V2: 'Biconomy Smart Account v2',
  SIMPLE_ACCOUNT: 'SimpleAccount (v0.6)',
}

export type SandboxTokenBalance = { symbol: string; address: string; decimals: number; balance: string }

export type SandboxAccount = {
  /** The smart account's address (counterfactual until deployed). */
  address: string
  type: SandboxAccountType
  label: string
  /** The owner EOA (its key stays in the data folder). */
  owner: string
  index: number
  createdAt: string
  /** Live chain state; null when the chain is not running. */
  deployed: boolean | null
  balanceWei: string | null
  tokens: SandboxTokenBalance[]
}

/** A v0.6 UserOperation as it goes on the wire: every number a 0x hex quantity. */
export type UserOperationJson = {
  sender: string
  nonce: string
  initCode: string
  callData: string
  callGasLimit: string
  verificationGasLimit: string
  preVerificationGas: string
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  paymasterAndData: string
  signature: string
}

export type SandboxCall = {
  to: string
  /** wei, decimal string */
  value?: string
  data?: string
}

export type CreateSandboxAccountRequest = { type: SandboxAccountType; label?: string }

export type BuildUserOperationRequest = { calls: SandboxCall[] }
export type BuildUserOperationResponse = {
  /** sender, nonce, initCode (while undeployed), callData, dummy signature, paymasterAndData 0x, fee fields from the node. */
  userOperation: UserOperationJson
  entryPoint: string
  deployed: boolean
}

export type SignUserOperationRequest = { userOperation: UserOperationJson }
export type SignUserOperationResponse = {
  userOperation: UserOperationJson
  userOpHash: string
  signature: string
}

export type FaucetRequest = {
  address: string
  /** 'ETH' or a test token's address. */
  asset: string
  /** Whole units (ETH or tokens), decimal string such as "1" or "0.5". */
  amount: string
}
export type FaucetResponse = {
  address: string
  asset: string
  symbol: string
  balance: string
  decimals: number
}
