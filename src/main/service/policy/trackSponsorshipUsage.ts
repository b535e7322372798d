import { type Address, type Hash, parseAbiItem } from 'viem'
import type { Chain } from '../chain'
import type { Logger } from '../log'
import type { Store } from '../store/openStore'
import type { SponsorshipUsage } from '../store/schema'
import { addSponsorshipUsage, getLastUsageBlock } from '../store/sponsorshipUsage.repo'

const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const gasBalanceDeducted = parseAbiItem(
  'event GasBalanceDeducted(address indexed _paymasterId, uint256 indexed _charge)',
)

/** Blocks per getLogs request. */
const LOG_RANGE = 5_000n
/** On a node with history we did not see, start this many blocks back. */
const EXTERNAL_LOOKBACK = 50_000n

export type UsageTracker = {
  /** Reads newly mined sponsored operations from the chain into the store; concurrent calls share one run. */
  sync: () => Promise<void>
  /** Unix seconds by the chain's clock: wall time, moved forward when the chain's blocks are ahead of it. */
  now: () => number
  /** Starts background syncing every `intervalMs`. */
  start: () => void
  stop: () => void
}

export type CreateUsageTrackerParameters = {
  store: Store
  getChain: () => Chain | undefined
  log: Logger
  intervalMs?: number
}

/**
 * Spending limits count what was mined, not what was signed: this tracker reads the EntryPoint's
 * UserOperationEvent (paymaster = our verifying paymaster) and the paymaster's GasBalanceDeducted in the same
 * transaction (paymasterId → dApp, charge), and keeps them in `sponsorshipUsage`. It also follows the chain's
 * clock, so `evm_increaseTime` on a dev chain moves limit cycles and signature expiry with it.
 */
export function createUsageTracker(params: CreateUsageTrackerParameters): UsageTracker {
  const { store, getChain, log } = params
  let cursor: bigint | undefined
  let clockOffset = 0
  let inflight: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined

  const now = () => Math.floor(Date.now() / 1000) + clockOffset

  async function run(): Promise<void> {
    const chain = getChain()
    if (!chain) return
    const latest = await chain.publicClient.getBlock({ blockTag: 'latest' })
    clockOffset = Math.max(0, Number(latest.timestamp) - Math.floor(Date.now() / 1000))
    const head = latest.number
    if (cursor === undefined) {
      const last = BigInt(getLastUsageBlock(store))
      cursor =
        last > 0n
          ? last
          : chain.kind === 'external' && head > EXTERNAL_LOOKBACK
            ? head - EXTERNAL_LOOKBACK
            : 0n
    }
    if (head < cursor) cursor = 0n // the chain was reset: rescan (records are de-duplicated by userOpHash)
    if (head === cursor && cursor !== 0n) return
    const byPaymasterId = new Map(
      store.data.dapps.filter((d) => d.paymasterId).map((d) => [d.paymasterId!.toLowerCase(), d]),
    )
    let from = cursor === 0n ? 0n : cursor + 1n
    const entries: SponsorshipUsage[] = []
    while (from <= head) {
      const to = from + LOG_RANGE - 1n < head ? from + LOG_RANGE - 1n : head
      const [operations, deductions] = await Promise.all([
        chain.publicClient.getLogs({
          address: chain.addresses.entryPoint,
          event: userOperationEvent,
          args: { paymaster: chain.addresses.verifyingPaymaster },
          fromBlock: from,
          toBlock: to,
        }),
        chain.publicClient.getLogs({
          address: chain.addresses.verifyingPaymaster,
          event: gasBalanceDeducted,
          fromBlock: from,
          toBlock: to,
        }),
      ])
      const timestamps = new Map<bigint, number>()
      await Promise.all(
        [...new Set(operations.map((o) => o.blockNumber))].map(async (blockNumber) => {
          const block = await chain.publicClient.getBlock({ blockNumber })
          timestamps.set(blockNumber, Number(block.timestamp))
        }),
      )
      for (const op of operations) {
        // postOp emits GasBalanceDeducted just before the EntryPoint emits this op's UserOperationEvent.
        const deduction = deductions
          .filter((d) => d.transactionHash === op.transactionHash && d.logIndex < op.logIndex)
          .sort((a, b) => b.logIndex - a.logIndex)[0]
        const paymasterId = deduction?.args._paymasterId
        const dapp = paymasterId ? byPaymasterId.get(paymasterId.toLowerCase()) : undefined
        if (!dapp || !paymasterId) continue
        entries.push({
          userOpHash: op.args.userOpHash as Hash,
          dappId: dapp.id,
          paymasterId: paymasterId as Address,
          sender: op.args.sender as Address,
          gasCostWei: (deduction.args._charge ?? op.args.actualGasCost ?? 0n).toString(),
          success: op.args.success ?? false,
          blockNumber: Number(op.blockNumber),
          minedAt: timestamps.get(op.blockNumber) ?? now(),
        })
      }
      from = to + 1n
    }
    cursor = head
    if (entries.length) await addSponsorshipUsage(store, entries)
  }

  let queued: Promise<void> | undefined
  // A caller must see every block mined before it asked: while a run is going, queue one more after it.
  const sync = (): Promise<void> => {
    if (!inflight) {
      inflight = run()
        .catch((err) => log.warn({ err }, 'sponsorship usage sync failed'))
        .finally(() => {
          inflight = undefined
        })
      return inflight
    }
    queued ??= inflight.then(() => {
      queued = undefined
      return sync()
    })
    return queued
  }

  return {
    sync,
    now,
    start() {
      if (timer) return
      timer = setInterval(() => void sync(), params.intervalMs ?? 2000)
      timer.unref()
      void sync()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
    },
  }
}
