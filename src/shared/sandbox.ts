/**
 * The sandbox console API (`/console/api/sandbox/*`): local smart accounts whose owner keys the service
 * holds. The renderer never sees a private key; it asks the service to build and sign UserOperations.
 */

export const SANDBOX_ACCOUNT_TYPES = [
  'SMART_ACCOUNT_V2',
  'SIMPLE_ACCOUNT',
  'SIMPLE_ACCOUNT_V07',
  'SIMPLE_7702_V08',
  'SAFE_V07',
  'KERNEL_V3_1',
  'LIGHT_ACCOUNT_V2',
  'NEXUS',
] as const
export type SandboxAccountType = (typeof SANDBOX_ACCOUNT_TYPES)[number]

export const SANDBOX_ACCOUNT_LABELS: Record<SandboxAccountType, string> = {
  SMART_ACCOUNT_V2: 'Biconomy Smart Account v2',
  SIMPLE_ACCOUNT: 'SimpleAccount (v0.6)',
  SIMPLE_ACCOUNT_V07: 'SimpleAccount (v0.7)',
  SIMPLE_7702_V08: 'EIP-7702 Simple7702Account (v0.8)',
  SAFE_V07: 'Safe 1.4.1 (v0.7)',
  KERNEL_V3_1: 'Kernel v3.1 (v0.7)',
  LIGHT_ACCOUNT_V2: 'LightAccount v2.0.0 (v0.7)',
  NEXUS: 'Nexus 1.0.0 (v0.7)',
}

/** The EntryPoint version each sandbox account type runs on. */
export const SANDBOX_ACCOUNT_ENTRY_POINT: Record<SandboxAccountType, '0.6' | '0.7' | '0.8'> = {
  SMART_ACCOUNT_V2: '0.6',
  SIMPLE_ACCOUNT: '0.6',
  SIMPLE_ACCOUNT_V07: '0.7',
  SIMPLE_7702_V08: '0.8',
  SAFE_V07: '0.7',
  KERNEL_V3_1: '0.7',
  LIGHT_ACCOUNT_V2: '0.7',
  NEXUS: '0.7',
}

export type SandboxTokenBalance = { symbol: string; address: string; decimals: number; balance: string }

export type SandboxAccount = {
  /** The smart account's address (counterfactual until deployed). */
  address: string
  type: SandboxAccountType
  label: string
  /** The owner EOA (its key stays in the data folder); for an EIP-7702 account, the account itself. */
  owner: string
  entryPointVersion: '0.6' | '0.7' | '0.8'
  index: number
  createdAt: string
  /** Live chain state; null when the chain is not running. */
  deployed: boolean | null
  balanceWei: string | null
  tokens: SandboxTokenBalance[]
}

/**
 * A UserOperation as it goes on the wire, every number a 0x hex quantity: v0.6 (`initCode`, `paymasterAndData`)
 * or ERC-7769's v0.7/v0.8 form (`factory`/`factoryData`, `paymaster`/`paymasterData` and its two limits, and
 * v0.8's `eip7702Auth` object).
 */
export type UserOperationJson = {
  sender: string
  nonce: string
  callData: string
  callGasLimit: string
  verificationGasLimit: string
  preVerificationGas: string
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  signature: string
  [field: string]: unknown
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
  /**
   * sender, nonce, the deployment (v0.6 initCode, v0.7 factory, v0.8 EIP-7702 authorization signed by the
   * service-held key) while undeployed, callData, dummy signature, no paymaster, fee fields from the node.
   */
  userOperation: UserOperationJson
  entryPoint: string
  entryPointVersion: '0.6' | '0.7' | '0.8'
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
