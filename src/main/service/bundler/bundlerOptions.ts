export type BundlingMode = 'auto' | 'interval' | 'manual'
export type ReceiptFormat = 'biconomy' | 'standard'

export type BundlerOptions = {
  /** Apply the ERC-7562 rules with a traced validation (default). False = `--unsafe`. */
  safeMode: boolean
  bundlingMode: BundlingMode
  /** Interval mode: milliseconds between bundles. */
  bundleIntervalMs: number
  /** Auto mode: how long to gather arriving operations before a bundle goes out. */
  autoBundleDelayMs: number
  /** Auto mode: how long operations that arrived while a bundle was out wait for more before the next one. */
  autoBundleGatherMs: number
  maxBundleOperations: number
  /** Pending operations one unstaked sender may have (ERC-7562 UREP-010: SAME_SENDER_MEMPOOL_COUNT, 4). */
  maxPendingPerUnstakedSender: number
  /** Wei an entity must have staked to count as staked (ERC-7562 MIN_STAKE_VALUE, set per chain; 1 wei here). */
  minStake: bigint
  /**
   * Seconds of unstake delay an entity's stake must have to count as staked (ERC-7562 MIN_UNSTAKE_DELAY: one day, as
   * mainnet bundlers require; a local chain may lower it, as the ERC-4337 test suite's bundler does).
   */
  minUnstakeDelay: number
  /** A bundle transaction not mined after this long is replaced with higher fees. */
  receiptTimeoutMs: number
  /** How long an operation whose nonce follows a gap waits for the missing nonces to arrive. */
  nonceGapWaitMs: number
  /**
   * eth_getUserOperationReceipt on an operation that is about to be mined (in a bundle transaction, or pending in
   * auto mode) answers when it is mined, or with null after this long. Clients poll right after sending (viem
   * does), then only every second or more: their first poll finds the receipt. 0 = always answer at once.
   */
  receiptWaitMs: number
}

export const defaultBundlerOptions: BundlerOptions = {
  safeMode: true,
  bundlingMode: 'auto',
  bundleIntervalMs: 1000,
  autoBundleDelayMs: 2,
  autoBundleGatherMs: 10,
  maxBundleOperations: 64,
  maxPendingPerUnstakedSender: 4,
  minStake: 1n,
  minUnstakeDelay: 86_400,
  receiptTimeoutMs: 30_000,
  nonceGapWaitMs: 2000,
  receiptWaitMs: 1000,
}

/** Whether a stake counts as staked for ERC-7562 (SREP-010) under the bundler's minimum stake and unstake delay. */
export function countsAsStaked(
  info: { stake: bigint; unstakeDelaySec: bigint | number },
  { minStake, minUnstakeDelay }: Pick<BundlerOptions, 'minStake' | 'minUnstakeDelay'>,
): boolean {
  return info.stake > 0n && info.stake >= minStake && BigInt(info.unstakeDelaySec) >= BigInt(minUnstakeDelay)
}

/** Gas of the eth_call / debug_traceCall simulations of a single operation. */
export const SIMULATION_GAS = 30_000_000n
