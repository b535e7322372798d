import type { NodeRequest } from '../node/nodeRpcError'

/**
 * The chain's notion of now, in unix seconds: what the next block's timestamp would be. A dev chain's time is moved
 * by `evm_increaseTime`, `evm_setNextBlockTimestamp`, `evm_mine` and a revert to a snapshot; the paymaster's signed
 * windows, a dApp's validity window and spending-limit periods, and the mempool's expiry all read this clock, never
 * the wall clock, so that they agree with what the EntryPoint will see.
 */
export type ChainClock = {
  /** Unix seconds by the chain: wall time plus the chain's offset, as last read. */
  now: () => number
  /** The chain's time minus wall time, in seconds, as last read. */
  offsetSeconds: () => number
  /** Reads the chain's time again (after a call that moved it); resolves with the new now. */
  sync: () => Promise<number>
  /** Called after each sync that moved the clock (the mempool drops what expired). */
  onChange: (listener: (now: number) => void) => () => void
}

/** The dev methods after which the chain's time is read again (routeStackMethods.ts). */
export const TIME_METHODS: ReadonlySet<string> = new Set([
  'evm_increaseTime',
  'anvil_increaseTime',
  'evm_setNextBlockTimestamp',
  'anvil_setNextBlockTimestamp',
  'evm_setTime',
  'anvil_setTime',
  'evm_mine',
  'anvil_mine',
  'hardhat_mine',
  'anvil_mine_detailed',
  'evm_mine_detailed',
])

const wallSeconds = () => Math.floor(Date.now() / 1000)

/**
 * A clock that follows the node's time. On anvil the pending block carries the timestamp the next block gets (the
 * wall clock plus anvil's offset, and a pending `setNextBlockTimestamp`); a node without a pending block is read by
 * its latest block, whose time is never behind the chain's.
 */
export function createChainClock(request: NodeRequest): ChainClock {
  let offset = 0
  const listeners = new Set<(now: number) => void>()
  const readTimestamp = async (tag: 'pending' | 'latest') => {
    const block = (await request('eth_getBlockByNumber', [tag, false])) as { timestamp?: string } | null
    return typeof block?.timestamp === 'string' ? Number(block.timestamp) : undefined
  }
  const now = () => wallSeconds() + offset
  return {
    now,
    offsetSeconds: () => offset,
    async sync() {
      const before = now()
      const pending = await readTimestamp('pending').catch(() => undefined)
      if (pending !== undefined) offset = pending - wallSeconds()
      else {
        const latest = await readTimestamp('latest')
        if (latest !== undefined) offset = Math.max(0, latest - wallSeconds())
      }
      const after = now()
      if (after !== before)
        for (const listener of listeners) {
          try {
            listener(after)
          } catch {
            // a listener's failure is its own to report
          }
        }
      return after
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
