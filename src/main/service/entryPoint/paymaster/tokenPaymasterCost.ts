/**
 * UNACCOUNTED_COST of every version's token paymaster (Biconomy's for v0.6, Opstation's packed one for v0.7+): gas
 * its postOp and the EntryPoint add outside actualGasCost, which the token charge includes.
 */
export const TOKEN_PAYMASTER_UNACCOUNTED_COST = 45_000n
