import { freezeDeep } from './freezeDeep'
import type { Store } from './openStore'
import type { SponsorshipUsage, StoreDocument } from './schema'

/** Mined sponsored operations kept for spending limits; the oldest are dropped first. */
export const MAX_SPONSORSHIP_USAGE = 5_000

/** Adds mined operations not yet recorded (by userOpHash). Returns how many were new. */
export async function addSponsorshipUsage(store: Store, entries: SponsorshipUsage[]): Promise<number> {
  if (entries.length === 0) return 0
  return store.update(addNewEntries(entries))
}

/**
 * addSponsorshipUsage for what a bundle's receipt says: counted at once (spending limits see it), written with the
 * store's next write (within DEFERRED_WRITE_MS; if the service is killed before, the next sync reads it from the
 * chain's logs again, from the last block the store holds). Returns how many were new.
 */
export function addSponsorshipUsageSoon(store: Store, entries: SponsorshipUsage[]): number {
  if (entries.length === 0) return 0
  return store.updateSoon(addNewEntries(entries))
}

function addNewEntries(entries: SponsorshipUsage[]) {
  return (doc: StoreDocument): number => {
    const list = doc.sponsorshipUsage
    const known = readCountedHashes(list)
    let added = 0
    for (const entry of entries) {
      const hash = entry.userOpHash.toLowerCase()
      if (known.has(hash)) continue
      known.add(hash)
      list.push(freezeDeep(entry))
      added++
    }
    if (list.length > MAX_SPONSORSHIP_USAGE) {
      for (const dropped of list.splice(0, list.length - MAX_SPONSORSHIP_USAGE))
        known.delete(dropped.userOpHash.toLowerCase())
    }
    countedHashes.set(list, { hashes: known, length: list.length, first: list[0], last: list.at(-1) })
    return added
  }
}

/**
 * The userOpHashes (lower case) of a document's usage list, kept beside the list between additions: building them
 * again on every mined bundle cost a pass over up to MAX_SPONSORSHIP_USAGE entries per operation (0.8 ms of CPU an
 * operation once the list was full). Built again when the list was changed other than by addNewEntries (its length
 * or ends differ); a snapshot or reset puts a new list in the document, with an index of its own.
 */
const countedHashes = new WeakMap<
  SponsorshipUsage[],
  { hashes: Set<string>; length: number; first?: SponsorshipUsage; last?: SponsorshipUsage }
>()

function readCountedHashes(list: SponsorshipUsage[]): Set<string> {
  const kept = countedHashes.get(list)
  if (kept && kept.length === list.length && kept.first === list[0] && kept.last === list.at(-1))
    return kept.hashes
  return new Set(list.map((u) => u.userOpHash.toLowerCase()))
}

/** The userOpHashes (lower case) the usage list already counts. */
export function readCountedUsage(store: Store): ReadonlySet<string> {
  return readCountedHashes(store.data.sponsorshipUsage)
}

/** Mined operations of a dApp since `sinceUnix` (inclusive). */
export function listSponsorshipUsage(store: Store, dappId: string, sinceUnix = 0): SponsorshipUsage[] {
  return store.data.sponsorshipUsage.filter((u) => u.dappId === dappId && u.minedAt >= sinceUnix)
}

/** The highest block of `chainId` already scanned, from the records (0 when none). */
export function getLastUsageBlock(store: Store, chainId: number): number {
  let last = 0
  for (const u of store.data.sponsorshipUsage)
    if (u.chainId === chainId && u.blockNumber > last) last = u.blockNumber
  return last
}
