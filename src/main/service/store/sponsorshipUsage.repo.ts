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
    const known = new Set(doc.sponsorshipUsage.map((u) => u.userOpHash.toLowerCase()))
    let added = 0
    for (const entry of entries) {
      if (known.has(entry.userOpHash.toLowerCase())) continue
      known.add(entry.userOpHash.toLowerCase())
      doc.sponsorshipUsage.push(entry)
      added++
    }
    if (doc.sponsorshipUsage.length > MAX_SPONSORSHIP_USAGE) {
      doc.sponsorshipUsage.splice(0, doc.sponsorshipUsage.length - MAX_SPONSORSHIP_USAGE)
    }
    return added
  }
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
