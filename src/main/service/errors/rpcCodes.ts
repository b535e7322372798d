/** JSON-RPC 2.0 / EIP-1474 codes. */
export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** EIP-1474 "resource not found" / unauthorized key (Biconomy uses -32001 for unauthorized). */
  unauthorized: -32001,
  /** Biconomy: unsupported chain or EntryPoint. */
  badRequest: -32003,
  /** Biconomy: userOpHash not found. */
  notFound: -32004,
  /** EIP-1474 "resource unavailable": the chain's node is away (503). */
  resourceUnavailable: -32002,
} as const

/** ERC-7769 bundler error codes (viem maps them to typed errors). */
export const Erc7769Code = {
  /** Account validation / simulation failed (AA1x, AA2x, AA4x). */
  simulateValidation: -32500,
  /** Paymaster validation failed (AA3x). */
  simulatePaymasterValidation: -32501,
  /** Banned opcode or storage access during validation (ERC-7562). */
  opcodeValidation: -32502,
  /** validUntil / validAfter out of range. */
  expiresShortly: -32503,
  /** Paymaster or signature aggregator throttled or banned. */
  reputation: -32504,
  /** Stake or unstake delay too low. */
  insufficientStake: -32505,
  unsupportedAggregator: -32506,
  /** Invalid wallet signature. */
  invalidSignature: -32507,
  /** Paymaster balance cannot cover all its pending ops. */
  paymasterDepositTooLow: -32508,
  /** Execution reverted (during estimation). */
  executionReverted: -32521,
} as const
