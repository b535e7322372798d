import {
  type Address,
  formatLog,
  type Hash,
  type Hex,
  type Log,
  parseAbiItem,
  type RpcLog,
  toEventSelector,
} from 'viem'
import type { Chain } from '../chain'
import { createEventDecoder } from '../chain/abis/decodeEventLogs'
import { isNodeUnreachable } from '../chain/node/isNodeUnreachable'
import { holdsContracts } from '../chain/versionContracts'
import { allEntryPoints } from '../entryPoint'
import type { Logger } from '../log/logger'
import type { Store } from '../store/openStore'
import type { SponsorshipUsage } from '../store/schema'
import {
  addSponsorshipUsage,
  addSponsorshipUsageSoon,
  getLastUsageBlock,
  readCountedUsage,
} from '../store/sponsorshipUsage.repo'

const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
/** The first topics of the events the usage reads: the EntryPoints' UserOperationEvent and each version's tank charge. */
const USAGE_TOPICS: ReadonlySet<string> = new Set(
  [userOperationEvent, ...allEntryPoints.map((module) => module.paymaster.chargeEvent)].map((event) =>
    toEventSelector(event),
  ),
)
const decodeUserOperationEvents = createEventDecoder(userOperationEvent)
/** Each version's charge event's decoder (versions may share one event). */
const chargeDecoders = new Map(
  allEntryPoints.map(({ paymaster: { chargeEvent } }) => [chargeEvent, createEventDecoder(chargeEvent)]),
)

/** A gas-tank charge of a verifying paymaster's postOp, whatever its version's event. */
type TankCharge = {
  transactionHash: Hash | null
  logIndex: number | null
  paymasterId: Address
  charge: bigint
}

/** A mined UserOperationEvent, from getLogs or from a receipt. */
type OperationLog = {
  args: {
    userOpHash?: Hash
    sender?: Address
    paymaster?: Address
    success?: boolean
    actualGasCost?: bigint
  }
  transactionHash: Hash | null
  logIndex: number | null
  blockNumber: bigint | null
}

const sameAddress = (a: string | undefined, b: string) =>
  a !== undefined && a.toLowerCase() === b.toLowerCase()

/**
 * Where sponsored operations of each EntryPoint version show: its EntryPoint's UserOperationEvent with the version's
 * verifying paymaster, and the paymaster's charge event (v0.6 Biconomy's GasBalanceDeducted, v0.7/v0.8
 * Opstation's GasTankCharged). Versions whose contracts the chain lacks are left out.
 */
function listTankSources(chain: Chain) {
  return allEntryPoints
    .map((module) => ({ module, c: module.contracts(chain) }))
    .filter(({ c }) => holdsContracts(chain, c.entryPoint, c.verifying))
    .map(({ module, c }) => {
      const paymaster = c.verifying.address
      const event = module.paymaster.chargeEvent
      const toCharges = (logs: Log[]): TankCharge[] =>
        (chargeDecoders.get(event)?.(logs) ?? []).map((l) => {
          const args = l.args as {
            _paymasterId?: Address
            _charge?: bigint
            paymasterId?: Address
            charge?: bigint
          }
          return {
            transactionHash: l.transactionHash,
            logIndex: l.logIndex,
            paymasterId: (args._paymasterId ?? args.paymasterId) as Address,
            charge: args._charge ?? args.charge ?? 0n,
          }
        })
      return {
        entryPoint: c.entryPoint.address,
        paymaster,
        readCharges: async (from: bigint, to: bigint) =>
          toCharges(
            await chain.publicClient.getLogs({ address: paymaster, event, fromBlock: from, toBlock: to }),
          ),
        chargesIn: (logs: Log[]) => toCharges(logs.filter((l) => sameAddress(l.address, paymaster))),
      }
    })
}

/** The chain's dApps by their gas tank id (the paymaster sits at one address on every chain: its tanks are per chain). */
const mapDappsByPaymasterId = (store: Store, chainId: number) =>
  new Map(
    store.data.dapps
      .filter((d) => d.paymasterId && d.chainId === chainId)
      .map((d) => [d.paymasterId!.toLowerCase(), d]),
  )

/**
 * The usage records of mined sponsored operations: each UserOperationEvent with the charge its paymaster's postOp
 * emitted just before it in the same transaction (paymasterId -> dApp). Operations of no dApp are left out.
 */
function matchUsage(
  operations: { op: OperationLog; charges: TankCharge[] }[],
  byPaymasterId: ReturnType<typeof mapDappsByPaymasterId>,
  minedAt: (blockNumber: bigint | null) => number,
): SponsorshipUsage[] {
  const entries: SponsorshipUsage[] = []
  for (const { op, charges } of operations) {
    const charge = charges
      .filter((d) => d.transactionHash === op.transactionHash && (d.logIndex ?? 0) < (op.logIndex ?? 0))
      .sort((a, b) => (b.logIndex ?? 0) - (a.logIndex ?? 0))[0]
    const dapp = charge ? byPaymasterId.get(charge.paymasterId.toLowerCase()) : undefined
    if (!dapp || !charge) continue
    entries.push({
      userOpHash: op.args.userOpHash as Hash,
      dappId: dapp.id,
      chainId: dapp.chainId,
      paymasterId: charge.paymasterId,
      sender: op.args.sender as Address,
      gasCostWei: (charge.charge || op.args.actualGasCost || 0n).toString(),
      success: op.args.success ?? false,
      blockNumber: Number(op.blockNumber),
      minedAt: minedAt(op.blockNumber),
    })
  }
  return entries
}

/** Blocks per getLogs request. */
const LOG_RANGE = 5_000n
/** On a node with history we did not see, start this many blocks back. */
const EXTERNAL_LOOKBACK = 50_000n

/** A transaction receipt as JSON-RPC returns it: what the tracker reads of one. */
export type MinedReceipt = { logs: readonly unknown[]; blockTimestamp?: Hex }

export type UsageTracker = {
  /** Reads newly mined sponsored operations from the chain into the store; concurrent calls share one run. */
  sync: () => Promise<void>
  /**
   * Counts the sponsored operations of a bundle the service mined, from its receipt, before anyone is told of it
   * (in memory at once): the chain's logs of old blocks may be gone by the next sync (the embedded anvil keeps its
   * last blocks' transactions only). The sync skips what this counted.
   */
  observeReceipt: (receipt: MinedReceipt) => void
  /** Unix seconds by the chain's clock (chain/clock/createChainClock.ts); wall time without a chain. */
  now: () => number
  /**
   * The tracker's part of a stack snapshot: `hold` waits for a sync under way (and holds the next ones back), and
   * `rewind` reads the spending from the store document again (after it was put back to a snapshot or reset).
   */
  hold: () => Promise<() => void>
  rewind: () => void
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
 * Spending limits count what was mined, not what was signed: this tracker reads each EntryPoint's
 * UserOperationEvent (paymaster = that version's verifying paymaster) and the paymaster's charge event in the same
 * transaction (paymasterId → dApp, charge), and keeps them in `sponsorshipUsage`, all versions together. Its `now` is
 * the chain's clock, so `evm_increaseTime` on a dev chain moves limit cycles and signature expiry with it.
 */
export function createUsageTracker(params: CreateUsageTrackerParameters): UsageTracker {
  const { store, getChain, log } = params
  let cursor: bigint | undefined
  let inflight: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let held: Promise<void> | undefined

  const now = () => getChain()?.clock.now() ?? Math.floor(Date.now() / 1000)

  async function run(): Promise<void> {
    const chain = getChain()
    if (!chain) return
    await held
    const latest = await chain.publicClient.getBlock({ blockTag: 'latest' })
    const head = latest.number
    if (cursor === undefined) {
      const last = BigInt(getLastUsageBlock(store, chain.chainId))
      cursor =
        last > 0n
          ? last
          : chain.kind === 'external' && head > EXTERNAL_LOOKBACK
            ? head - EXTERNAL_LOOKBACK
            : 0n
    }
    if (head < cursor) cursor = 0n // the chain was reset: rescan (records are de-duplicated by userOpHash)
    if (head === cursor && cursor !== 0n) return
    const byPaymasterId = mapDappsByPaymasterId(store, chain.chainId)
    let from = cursor === 0n ? 0n : cursor + 1n
    const entries: SponsorshipUsage[] = []
    while (from <= head) {
      const to = from + LOG_RANGE - 1n < head ? from + LOG_RANGE - 1n : head
      const found = await Promise.all(
        listTankSources(chain).map(async (source) => {
          const [operations, charges] = await Promise.all([
            chain.publicClient.getLogs({
              address: source.entryPoint,
              event: userOperationEvent,
              args: { paymaster: source.paymaster },
              fromBlock: from,
              toBlock: to,
            }),
            source.readCharges(from, to),
          ])
          return operations.map((op) => ({ op, charges }))
        }),
      )
      // Operations already counted (from their bundle's receipt as the service mined them, or by an earlier scan)
      // are left out before their blocks are read: every bundle the service mines shows here again.
      const known = readCountedUsage(store)
      const operations = found.flat().filter(({ op }) => !known.has((op.args.userOpHash ?? '').toLowerCase()))
      const timestamps = new Map<bigint, number>()
      await Promise.all(
        [...new Set(operations.map(({ op }) => op.blockNumber))].map(async (blockNumber) => {
          const block = await chain.publicClient.getBlock({ blockNumber })
          timestamps.set(blockNumber, Number(block.timestamp))
        }),
      )
      entries.push(
        ...matchUsage(
          operations,
          byPaymasterId,
          (block) => (block === null ? undefined : timestamps.get(block)) ?? now(),
        ),
      )
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
        // The node away is told once, by the chain's status; the next sync after it is back catches up.
        .catch((err) =>
          isNodeUnreachable(err)
            ? log.debug({ err }, 'sponsorship usage sync: the chain is away')
            : log.warn({ err }, 'sponsorship usage sync failed'),
        )
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

  const observeReceipt = (mined: MinedReceipt) => {
    const chain = getChain()
    if (!chain) return
    // Only the events the usage reads are decoded (a bundle's other logs: deposits, the accounts' and tokens' events).
    const logs = (mined.logs as RpcLog[]).filter((l) => USAGE_TOPICS.has(l.topics[0]?.toLowerCase() ?? ''))
    if (logs.length === 0) return
    const receipt = { logs: logs.map((l) => formatLog(l)) }
    const minedAt = mined.blockTimestamp === undefined ? now() : Number(mined.blockTimestamp)
    // Only an EntryPoint with logs in the receipt is decoded, and its paymaster's charges only when it sponsored one.
    const operations = listTankSources(chain).map((source) => {
      const atEntryPoint = receipt.logs.filter((l) => sameAddress(l.address, source.entryPoint))
      const op =
        atEntryPoint.length === 0
          ? []
          : (decodeUserOperationEvents(atEntryPoint) as (Log & OperationLog)[]).filter((l) =>
              sameAddress(l.args.paymaster, source.paymaster),
            )
      return { op, charges: op.length === 0 ? [] : source.chargesIn(receipt.logs) }
    })
    const entries = matchUsage(
      operations.flatMap(({ op, charges }) => op.map((o) => ({ op: o, charges }))),
      mapDappsByPaymasterId(store, chain.chainId),
      () => minedAt,
    )
    addSponsorshipUsageSoon(store, entries)
  }

  return {
    sync,
    observeReceipt,
    now,
    async hold() {
      let release = () => {}
      const holding = new Promise<void>((resolve) => {
        release = resolve
      })
      held = holding
      await inflight?.catch(() => {})
      return () => {
        if (held === holding) held = undefined
        release()
      }
    },
    rewind() {
      cursor = undefined
    },
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
