import type { DecisionEntry, FeedEntry } from './feedEntries'

export type FeedKind = 'all' | FeedEntry['kind']
/** `chainId`: one chain's rows only (none or null: every chain's). */
export type FeedFilter = { kind: FeedKind; status: string; search: string; chainId?: number | null }

/** Decisions by the userOpHash they were for (lowercase), newest first as the decisions came. */
export type DecisionsByHash = Map<string, DecisionEntry[]>

/**
 * The feed: operations and decisions, newest first. An operation takes the dApp (and the verdict) of the decision
 * that sponsored it.
 */
export function buildFeed(
  operations: Iterable<FeedEntry>,
  decisions: Iterable<FeedEntry>,
): { rows: FeedEntry[]; decisionsByHash: DecisionsByHash } {
  const decisionList = [...decisions]
  const decisionsByHash: DecisionsByHash = new Map()
  for (const d of decisionList) {
    if (d.kind !== 'sponsorship' || !d.userOpHash) continue
    const key = d.userOpHash.toLowerCase()
    decisionsByHash.set(key, [...(decisionsByHash.get(key) ?? []), d])
  }
  const rows: FeedEntry[] = [
    ...[...operations].map((o) => {
      const d = o.userOpHash ? decisionsByHash.get(o.userOpHash.toLowerCase())?.[0] : undefined
      return d
        ? { ...o, apiKey: o.apiKey ?? d.apiKey, dappName: o.dappName ?? d.dappName, sponsored: d.sponsored }
        : o
    }),
    ...decisionList,
  ]
  rows.sort((a, b) => b.at - a.at || a.key.localeCompare(b.key))
  return { rows, decisionsByHash }
}

/** The rows of a kind, status and chain whose sender, userOpHash or dApp name holds the search (any case). */
export function filterFeed(rows: FeedEntry[], filter: FeedFilter): FeedEntry[] {
  const q = filter.search.trim().toLowerCase()
  return rows.filter(
    (r) =>
      (filter.kind === 'all' || r.kind === filter.kind) &&
      (filter.chainId == null || r.chainId === filter.chainId) &&
      (!filter.status || r.status === filter.status) &&
      (!q ||
        r.sender?.toLowerCase().includes(q) ||
        r.userOpHash?.toLowerCase().includes(q) ||
        r.dappName?.toLowerCase().includes(q)),
  )
}

/** The statuses the rows have, sorted (the status filter's options). */
export function listStatuses(rows: FeedEntry[]): string[] {
  return [...new Set(rows.map((r) => r.status))].sort()
}
