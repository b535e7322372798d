import type { SandboxCall, UserOperationJson } from '../../../../shared/sandbox'

const MAX_UINT256 = (1n << 256n) - 1n

/** A quantity (a number, a decimal or 0x string) as minimal 0x-hex. */
export function toHexQuantity(value: string | number): string {
  return `0x${BigInt(value).toString(16)}`
}

const GAS_FIELDS = new Set([
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
])

/**
 * The op with the fields a bundler estimate or a paymaster answer gave: gas limits as 0x-hex (Biconomy's answer
 * mixes numbers and strings), paymaster fields as they are; the estimate's validity window and the fee fields are
 * not taken.
 */
export function withGasFields(
  op: UserOperationJson,
  fields: Record<string, string | number | null | undefined>,
): UserOperationJson {
  const next: UserOperationJson = { ...op }
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || key === 'validAfter' || key === 'validUntil') continue
    if (key === 'maxFeePerGas' || key === 'maxPriorityFeePerGas') continue
    next[key] = GAS_FIELDS.has(key) ? toHexQuantity(value) : value
  }
  return next
}

/** Limits high enough for any sandbox account's deployment, validation and a call: for a simulation only. */
const SIMULATION_LIMITS: Record<string, bigint> = {
  callGasLimit: 1_000_000n,
  verificationGasLimit: 1_000_000n,
  preVerificationGas: 100_000n,
  paymasterVerificationGasLimit: 300_000n,
  paymasterPostOpGasLimit: 100_000n,
}

/**
 * The op with every gas limit still zero (no estimate came back: the estimate itself failed) set to a generous
 * one, so a simulation runs the operation through and says why it fails; which limits it set.
 */
export function withSimulationLimits(op: UserOperationJson): { op: UserOperationJson; filled: string[] } {
  const filled = Object.keys(SIMULATION_LIMITS).filter(
    (key) => key in op && BigInt(String(op[key] ?? '0')) === 0n,
  )
  const limits = Object.fromEntries(filled.map((key) => [key, toHexQuantity(String(SIMULATION_LIMITS[key]))]))
  return { op: { ...op, ...limits }, filled }
}

/** approve(spender, max) on a token: what the SDK prepends in ERC20 mode so the token paymaster can charge. */
export function approveCall(token: string, spender: string): SandboxCall {
  const data = `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, '0')}${MAX_UINT256.toString(16).padStart(64, '0')}`
  return { to: token, value: '0', data }
}

/** Whether a paymaster's answer sponsors the op: v0.6 paymasterAndData ("0x" when not), v0.7/v0.8 a paymaster. */
export function isSponsored(fields: Record<string, string | number | null | undefined>): boolean {
  return 'paymaster' in fields ? Boolean(fields.paymaster) : String(fields.paymasterAndData ?? '0x') !== '0x'
}
