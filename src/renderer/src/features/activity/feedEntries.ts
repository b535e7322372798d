import type { SponsorshipView } from '../../../../shared/api/sponsorships'
import type { UserOperationView } from '../../../../shared/api/userOperations'

/**
 * One row of the activity feed: a UserOperation the bundler saw (`/console/api/user-operations`) or a sponsorship
 * decision of the paymaster (`/console/api/sponsorship-decisions`), in one row shape; `record` is the answer's.
 */
type FeedEntryFields = {
  key: string
  id: string
  /** ms since epoch */
  at: number
  /** The chain's time at `at` (ms since epoch), when the service stamped it (records since chain time was kept). */
  chainAt: number | null
  /** The chain the operation was sent on (the decision made on). */
  chainId: number
  /** received | bundled | mined | failed | rejected | dropped | replaced | sponsored | not sponsored */
  status: string
  sender: string | null
  userOpHash: string | null
  apiKey: string | null
  dappName: string | null
  sponsored: boolean | null
  reason: string | null
  mode: string | null
  /** wei spent (mined ops), decimal string */
  gasCostWei: string | null
  seq: number | null
}
export type OperationEntry = FeedEntryFields & { kind: 'userOperation'; record: UserOperationView }
export type DecisionEntry = FeedEntryFields & { kind: 'sponsorship'; record: SponsorshipView }
export type FeedEntry = OperationEntry | DecisionEntry

/** The bundler's record states in the words of the console. */
const OP_STATUS_LABELS = new Map<string, string>([
  ['pending', 'received'],
  ['submitted', 'bundled'],
  ['included', 'mined'],
  ['failed', 'failed'],
  ['rejected', 'rejected'],
  ['dropped', 'dropped'],
  ['replaced', 'replaced'],
])

/** A UserOperation status (or a timeline step's) in the words of the console; an unknown one as it is. */
export function labelOperationStatus(status: string): string {
  return OP_STATUS_LABELS.get(status) ?? status
}

/** How far chain time may be from wall time before the feed shows both (a block's time runs a little ahead). */
const CHAIN_TIME_SHOWN_FROM_MS = 60_000

/** The chain time of an entry when it differs from its wall time enough to show beside it; null otherwise. */
export function shownChainTime(entry: Pick<FeedEntryFields, 'at' | 'chainAt'>): number | null {
  if (entry.chainAt === null) return null
  return Math.abs(entry.chainAt - entry.at) >= CHAIN_TIME_SHOWN_FROM_MS ? entry.chainAt : null
}

/** An ISO time as ms since epoch; 0 when it does not parse. */
function toMs(iso: string): number {
  const ms = new Date(iso).getTime()
  return Number.isNaN(ms) ? 0 : ms
}

export function toOperationEntry(record: UserOperationView): OperationEntry {
  return {
    key: `op:${record.userOpHash}`,
    id: record.userOpHash,
    kind: 'userOperation',
    at: toMs(record.updatedAt),
    chainAt: record.chainTime === undefined ? null : record.chainTime * 1000,
    chainId: record.chainId,
    status: labelOperationStatus(record.status),
    sender: record.sender,
    userOpHash: record.userOpHash,
    // A UserOperation names its dApp by id only: the feed takes the name from the decision that sponsored it.
    apiKey: null,
    dappName: null,
    sponsored: null,
    reason: record.failure?.reason ?? (record.revertReason || null),
    mode: null,
    gasCostWei: record.actualGasCost,
    seq: record.seq,
    record,
  }
}

export function toDecisionEntry(record: SponsorshipView): DecisionEntry {
  return {
    key: `dec:${record.id}`,
    id: record.id,
    kind: 'sponsorship',
    at: toMs(record.at),
    chainAt: record.chainTime === undefined ? null : record.chainTime * 1000,
    chainId: record.chainId,
    status: record.sponsored ? 'sponsored' : 'not sponsored',
    sender: record.sender,
    userOpHash: record.userOpHash || null,
    apiKey: record.apiKey,
    dappName: record.dappName,
    sponsored: record.sponsored,
    reason: record.reason || null,
    mode: record.mode,
    gasCostWei: null,
    seq: null,
    record,
  }
}

/** The feed's entries by key, with `entries` added or replacing the ones of the same key. */
export function mergeEntries(
  previous: ReadonlyMap<string, FeedEntry> | undefined,
  entries: FeedEntry[],
): Map<string, FeedEntry> {
  const next = new Map(previous)
  for (const e of entries) next.set(e.key, e)
  return next
}

/** A detail key (`op:<userOpHash>` or `dec:<id>`) read: which answer it names. */
export function parseEntryKey(key: string): { kind: FeedEntry['kind']; id: string } {
  const colon = key.indexOf(':')
  return { kind: key.slice(0, colon) === 'op' ? 'userOperation' : 'sponsorship', id: key.slice(colon + 1) }
}

/** The entry as the feed shows it, with the record of a fresher read of the same key (a detail load). */
export function withFreshRecord(entry: FeedEntry, fresh: FeedEntry): FeedEntry {
  if (entry.kind === 'userOperation' && fresh.kind === 'userOperation')
    return { ...entry, record: fresh.record }
  if (entry.kind === 'sponsorship' && fresh.kind === 'sponsorship') return { ...entry, record: fresh.record }
  return fresh
}

export type StatusTone = 'ok' | 'bad' | 'warn' | 'neutral' | 'info'

export function statusTone(status: string): StatusTone {
  if (status === 'mined' || status === 'sponsored') return 'ok'
  if (status === 'failed' || status === 'rejected' || status === 'not sponsored' || status === 'dropped')
    return 'bad'
  if (status === 'received' || status === 'bundled') return 'info'
  return 'neutral'
}
