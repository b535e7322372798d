import type { Logger } from '../../log/logger'

/**
 * The node says the nonce is not the account's next one: someone else used the account (a transaction of theirs
 * holds the nonce: "replacement transaction underpriced"), or the chain restarted from an older state.
 */
const NONCE_ERROR =
  /nonce too low|nonce too high|invalid nonce|nonce.*(low|lower|used)|replacement transaction underpriced/i

/** Whether a failed send was refused for its nonce (the message of the error or of anything in its cause chain). */
export function isNonceError(err: unknown): boolean {
  for (let item = err, depth = 0; item && depth < 8; depth++) {
    const { message, details, cause } = item as { message?: unknown; details?: unknown; cause?: unknown }
    if (typeof message === 'string' && NONCE_ERROR.test(message)) return true
    if (typeof details === 'string' && NONCE_ERROR.test(details)) return true
    item = cause
  }
  return false
}

export type NonceManager = {
  /**
   * Runs `send` with the account's next nonce, one send at a time: the nonce is used up when `send` resolves (it
   * must resolve once the node took the transaction, not when it is mined) and stays free when it rejects. A send
   * refused for its nonce reads the node's pending nonce and runs once more with it.
   */
  withNextNonce: <T>(send: (nonce: number) => Promise<T>) => Promise<T>
  /** Forgets the local count: the next send reads the node's pending nonce (after a chain restart, or a send that failed after it looked accepted). */
  resync: () => void
}

export type CreateNonceManagerParameters = {
  /** The account's nonce counting the node's pending transactions (`eth_getTransactionCount(address, 'pending')`). */
  readPendingNonce: () => Promise<number>
  log?: Logger
  /** The account's address, for the log. */
  account?: string
}

/**
 * The nonce sequence of one account the service sends from. Every transaction of the account goes through it,
 * whoever sends it (faucet, gas tanks, dApp creation, bundles, deployment): concurrent sends get consecutive
 * nonces instead of the same one, and a send that fails leaves no gap (its nonce goes to the next send).
 */
export function createNonceManager({
  readPendingNonce,
  log,
  account,
}: CreateNonceManagerParameters): NonceManager {
  let next: number | undefined
  let queue: Promise<unknown> = Promise.resolve()

  const sendWithNonce = async <T>(send: (nonce: number) => Promise<T>): Promise<T> => {
    next ??= await readPendingNonce()
    const nonce = next
    try {
      const result = await send(nonce)
      next = nonce + 1
      return result
    } catch (err) {
      if (!isNonceError(err)) {
        // Not known whether the node took it (a time-out after it was sent): read the node's count next time.
        next = undefined
        throw err
      }
      const pending = await readPendingNonce()
      log?.warn(
        { account, nonce, pending, err: (err as Error).message?.split('\n')[0] },
        'nonce resynced from the node',
      )
      next = pending
      try {
        const result = await send(pending)
        next = pending + 1
        return result
      } catch (again) {
        next = undefined
        throw again
      }
    }
  }

  return {
    withNextNonce(send) {
      const run = queue.then(() => sendWithNonce(send))
      queue = run.catch(() => {})
      return run
    },
    resync() {
      next = undefined
    },
  }
}
