import type { EntryPointVersion } from './entryPointVersions'
/**
 * The sandbox console API (`/console/api/sandbox/*`): local smart accounts whose owner keys the service
 * holds. The renderer never sees a private key; it asks the service to build and sign UserOperations.
 */

export const SANDBOX_ACCOUNT_TYPES = [
  'SMART_ACCOUNT_V2',
  'SIMPLE_ACCOUNT',
  'SIMPLE_ACCOUNT_V07',
  'SIMPLE_7702_V08',
  'SIMPLE_7702_V09',
  'SAFE_V07',
  'KERNEL_V3_1',
  'LIGHT_ACCOUNT_V2',
  'NEXUS',
  'SAFE_V06',
  'KERNEL_V2_4',
  'LIGHT_ACCOUNT_V1_1',
  'TRUST',
  'THIRDWEB_V06',
  'COINBASE_V1',
  'COINBASE_V1_1',
  'ETHERSPOT',
  'THIRDWEB_V07',
  'MODULAR_ACCOUNT_V1',
  'MODULAR_ACCOUNT_V2',
  'SOLADY_V07',
  'MODULAR_ACCOUNT_V1_MULTISIG',
] as const
export type SandboxAccountType = (typeof SANDBOX_ACCOUNT_TYPES)[number]

export const SANDBOX_ACCOUNT_LABELS: Record<SandboxAccountType, string> = {
  SMART_ACCOUNT_V2: 'Biconomy Smart Account v2',
  SIMPLE_ACCOUNT: 'SimpleAccount (v0.6)',
  SIMPLE_ACCOUNT_V07: 'SimpleAccount (v0.7)',
  SIMPLE_7702_V08: 'EIP-7702 Simple7702Account (v0.8)',
  SIMPLE_7702_V09: 'EIP-7702 Simple7702Account (v0.9)',
  SAFE_V07: 'Safe 1.4.1 (v0.7)',
  KERNEL_V3_1: 'Kernel v3.1 (v0.7)',
  LIGHT_ACCOUNT_V2: 'LightAccount v2.0.0 (v0.7)',
  NEXUS: 'Nexus 1.0.0 (v0.7)',
  SAFE_V06: 'Safe 1.4.1 (v0.6)',
  KERNEL_V2_4: 'Kernel v2.4 (v0.6)',
  LIGHT_ACCOUNT_V1_1: 'LightAccount v1.1.0 (v0.6)',
  TRUST: 'Trust Wallet Barz (v0.6)',
  THIRDWEB_V06: 'thirdweb (v0.6)',
  COINBASE_V1: 'Coinbase Smart Wallet v1 (v0.6)',
  COINBASE_V1_1: 'Coinbase Smart Wallet v1.1 (v0.6)',
  ETHERSPOT: 'Etherspot modular wallet (v0.7)',
  THIRDWEB_V07: 'thirdweb (v0.7)',
  MODULAR_ACCOUNT_V1: 'Alchemy Modular Account v1 (v0.6)',
  MODULAR_ACCOUNT_V2: 'Alchemy Modular Account v2 (v0.7)',
  SOLADY_V07: 'Solady account (v0.7)',
  MODULAR_ACCOUNT_V1_MULTISIG: 'Alchemy Modular Account v1 multisig (v0.6)',
}

/** The EntryPoint version each sandbox account type runs on. */
export const SANDBOX_ACCOUNT_ENTRY_POINT: Record<SandboxAccountType, EntryPointVersion> = {
  SMART_ACCOUNT_V2: '0.6',
  SIMPLE_ACCOUNT: '0.6',
  SIMPLE_ACCOUNT_V07: '0.7',
  SIMPLE_7702_V08: '0.8',
  SIMPLE_7702_V09: '0.9',
  SAFE_V07: '0.7',
  KERNEL_V3_1: '0.7',
  LIGHT_ACCOUNT_V2: '0.7',
  NEXUS: '0.7',
  SAFE_V06: '0.6',
  KERNEL_V2_4: '0.6',
  LIGHT_ACCOUNT_V1_1: '0.6',
  TRUST: '0.6',
  THIRDWEB_V06: '0.6',
  COINBASE_V1: '0.6',
  COINBASE_V1_1: '0.6',
  ETHERSPOT: '0.7',
  THIRDWEB_V07: '0.7',
  MODULAR_ACCOUNT_V1: '0.6',
  MODULAR_ACCOUNT_V2: '0.7',
  SOLADY_V07: '0.7',
  MODULAR_ACCOUNT_V1_MULTISIG: '0.6',
}

/**
 * Account types a bundler in safe mode refuses, as public bundlers do (their validation breaks an ERC-7562 rule):
 * the rule and why, which the console shows next to the account.
 */
export const SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS: Partial<
  Record<SandboxAccountType, { rule: string; why: string }>
> = {
  TRUST: {
    rule: 'STO-033',
    why:
      'its validation reads the facet table of its DefaultFallbackHandler, storage of a contract that is not ' +
      'the account, its factory or the paymaster, and is not staked',
  },
  NEXUS: {
    rule: 'OP-041',
    why:
      'its K1 validator checks with EXTCODESIZE, while the factory deploys the account, that the owner has no ' +
      'code: an address without code, which only the account itself may be',
  },
}

export type SandboxTokenBalance = { symbol: string; address: string; decimals: number; balance: string }

export type SandboxAccount = {
  /** The smart account's address (counterfactual until deployed). */
  address: string
  type: SandboxAccountType
  label: string
  /** The owner EOA (its key stays in the data folder); for an EIP-7702 account, the account itself. */
  owner: string
  entryPointVersion: EntryPointVersion
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
  entryPointVersion: EntryPointVersion
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
