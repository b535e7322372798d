/** The operation's gas limits, then the paymaster's two (v0.7/v0.8 with a paymaster) when present. */
export const GAS_LIMIT_FIELDS = [
  'preVerificationGas',
  'verificationGasLimit',
  'callGasLimit',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

export type GasLimitField = (typeof GAS_LIMIT_FIELDS)[number]

/**
 * The gas limits a record carries, in GAS_LIMIT_FIELDS order, without the absent ones; without the paymaster's two
 * when `withPaymaster` is false (an operation without a paymaster).
 */
export function listGasLimits(
  gas: Partial<Record<GasLimitField, string | null>>,
  withPaymaster = true,
): { field: GasLimitField; value: string }[] {
  return GAS_LIMIT_FIELDS.flatMap((field) => {
    const value = gas[field]
    if (value === undefined || value === null) return []
    if (!withPaymaster && field.startsWith('paymaster')) return []
    return [{ field, value }]
  })
}
