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
  /**
   * Pending operations one unstaked sender may have. ERC-7562 says 4; local testing often sends a sender's
   * nonces in parallel, so the default is higher.
   */
  maxPendingPerUnstakedSender: number
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
  maxPendingPerUnstakedSender: 16,
  receiptTimeoutMs: 30_000,
  nonceGapWaitMs: 2000,
  receiptWaitMs: 1000,
}

/** Gas of the eth_call / debug_traceCall simulations of a single operation. */
export const SIMULATION_GAS = 30_000_000n
