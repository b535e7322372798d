import type { Hex } from 'viem'
import type { Logger } from '../../log/logger'
import { isNodeUnreachable } from '../node/isNodeUnreachable'
import type { NodeRequest } from '../node/nodeRpcError'
import type { NamedContract } from '../versionContracts'
import {
  judgeNode,
  type KnownNode,
  type NodeObservation,
  type NodeVerdict,
  shouldCheckContracts,
} from './judgeNode'

export type WatchNodeParameters = {
  /** The node's own request (not the service's gate, which refuses calls while the node is away). */
  request: NodeRequest
  /** The chain as the service last had it whole; the watcher moves `head` forward, the owner the rest. */
  known: KnownNode
  /** The service's contracts whose code must stay there. */
  listContracts: () => NamedContract[]
  /** A new verdict (a change of state, or new missing contracts): the next look waits until this is done. */
  onVerdict: (verdict: NodeVerdict, previous: NodeVerdict) => Promise<void> | void
  /** While true (the embedded node restarting under its own supervision) the watcher does not look. */
  isPaused?: () => boolean
  /**
   * The node's run (the embedded node's supervisor counts its exits): a look during which it changed, or that ends
   * paused, saw the old run or the gap between runs, and is dropped.
   */
  readRun?: () => number
  log: Logger
  intervalMs?: number
  /** A node that does not answer a look within this is unreachable (a hung node would hold a call 30 s). */
  lookTimeoutMs?: number
  /** Contracts are checked every this many looks, and whenever the head went back. */
  contractEveryLooks?: number
  /** A node mining on a timer: ms per block (its head must move); undefined when blocks come with transactions. */
  blockTimeMs?: number
}

export type NodeWatch = {
  /** Looks now (after any look under way) and returns the verdict. */
  look: () => Promise<NodeVerdict>
  readonly verdict: NodeVerdict
  /** When the last look ended (whatever it found); undefined before the first. */
  readonly checkedAt: Date | undefined
  stop: () => void
}

class LookTimeout extends Error {}

/** Looks in a row without an answer in time before the node counts as unreachable. */
const SLOW_LOOKS_TO_UNREACHABLE = 3

/**
 * Watches the node the service uses, once a second: it answers, with the same chain id and genesis block, its head
 * not gone back, the service's contracts still there. Each change of verdict is handed to `onVerdict` once (its
 * owner tells the console and logs it once, closes or opens the service's gate, and recovers), never every look.
 */
export function watchNode(params: WatchNodeParameters): NodeWatch {
  const { request, known, log } = params
  const intervalMs = params.intervalMs ?? 1000
  const lookTimeoutMs = params.lookTimeoutMs ?? 3000
  const contractEveryLooks = params.contractEveryLooks ?? 5
  let verdict: NodeVerdict = { state: 'ready' }
  let looks = 0
  let slowLooks = 0
  let lastHead: bigint | undefined
  let headMovedAt = Date.now()
  let running: Promise<NodeVerdict> | undefined
  let stopped = false
  let checkedAt: Date | undefined

  const listMissing = async (): Promise<string[]> => {
    const contracts = params.listContracts()
    const codes = await Promise.all(contracts.map((c) => request('eth_getCode', [c.address, 'latest'])))
    return contracts.filter((_, i) => codes[i] === '0x' || codes[i] === '0x0').map((c) => c.name)
  }

  const observe = async (): Promise<NodeObservation> => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LookTimeout(`no answer within ${lookTimeoutMs} ms`)), lookTimeoutMs)
    })
    try {
      return await Promise.race([
        timeout,
        (async (): Promise<NodeObservation> => {
          const [chainId, genesis, head] = await Promise.all([
            request('eth_chainId', []),
            request('eth_getBlockByNumber', ['0x0', false]) as Promise<{ hash: Hex } | null>,
            request('eth_blockNumber', []),
          ])
          const headNumber = BigInt(head as string)
          if (headNumber !== lastHead) {
            lastHead = headNumber
            headMovedAt = Date.now()
          }
          const genesisHash = genesis?.hash ?? '0x'
          const checkContracts =
            verdict.state !== 'ready' ||
            shouldCheckContracts(known, genesisHash, headNumber, looks, contractEveryLooks)
          return {
            reachable: true,
            chainId: Number(chainId),
            genesisHash,
            head: headNumber,
            missing: checkContracts ? await listMissing() : undefined,
            headStillMs: Date.now() - headMovedAt,
          }
        })(),
      ])
    } catch (err) {
      if (err instanceof LookTimeout) throw err
      if (isNodeUnreachable(err)) return { reachable: false, error: (err as Error).message }
      throw err
    } finally {
      clearTimeout(timer)
    }
  }

  const lookOnce = async (): Promise<NodeVerdict> => {
    looks++
    const run = params.readRun?.()
    const stale = () => params.isPaused?.() === true || params.readRun?.() !== run
    let seen: NodeObservation
    try {
      seen = await observe()
      slowLooks = 0
      if (stale()) return verdict
    } catch (err) {
      if (stale()) return verdict
      // A refused or reset connection is an outage at once; a slow answer only when it stays slow (a busy node, or
      // one whose calls wait behind a state save, answers late but answers).
      if (err instanceof LookTimeout) {
        slowLooks++
        if (slowLooks < SLOW_LOOKS_TO_UNREACHABLE) return verdict
        seen = { reachable: false, error: `${err.message}, ${slowLooks} times in a row` }
        return decide(seen)
      }
      // An answer the watcher did not expect (a node without eth_getBlockByNumber "0x0"?): keep the last verdict.
      log.debug({ err }, 'chain watch: unexpected answer')
      return verdict
    }
    return decide(seen)
  }

  const decide = async (seen: NodeObservation): Promise<NodeVerdict> => {
    const next = judgeNode(known, seen, params.blockTimeMs)
    // The chain as it is now, whole: a reload of the same state or a revert moves what the next look compares to.
    if (next.state === 'ready' && seen.reachable && seen.missing !== undefined) {
      known.genesisHash = seen.genesisHash
      known.head = seen.head
    } else if (next.state === 'ready' && seen.reachable && seen.head > known.head) known.head = seen.head
    if (!sameVerdict(next, verdict)) {
      const previous = verdict
      verdict = next
      await params.onVerdict(next, previous)
    }
    return verdict
  }

  const look = (): Promise<NodeVerdict> => {
    running ??= lookOnce().finally(() => {
      running = undefined
      checkedAt = new Date()
    })
    return running
  }

  const timer = setInterval(() => {
    if (stopped || running || params.isPaused?.()) return
    void look().catch((err) => log.error({ err }, 'chain watch failed'))
  }, intervalMs)
  timer.unref()

  return {
    look,
    get verdict() {
      return verdict
    },
    get checkedAt() {
      return checkedAt
    },
    stop() {
      stopped = true
      clearInterval(timer)
    },
  }
}

function sameVerdict(a: NodeVerdict, b: NodeVerdict): boolean {
  if (a.state !== b.state) return false
  if (a.state === 'contracts-missing' && b.state === 'contracts-missing')
    return a.missing.join() === b.missing.join()
  if (a.state === 'wrong-chain' && b.state === 'wrong-chain') return a.chainId === b.chainId
  if (a.state === 'stalled' && b.state === 'stalled') return a.head === b.head
  return true
}
