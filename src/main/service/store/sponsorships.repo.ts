import type { Sponsorship } from '../../../shared/api/sponsorships'
import { getBatchedAppender } from './batchedAppend'
import type { Store } from './openStore'

/** Decisions kept; the oldest are dropped first (the store rewrites the whole document on every change). */
export const MAX_SPONSORSHIPS = 500

/**
 * Queues a decision; it is readable at once (list/find below) and written with the next batch
 * (store/batchedAppend.ts), so the request path never waits for, or pays for, a whole-document write.
 */
export function addSponsorship(store: Store, sponsorship: Sponsorship): void {
  getBatchedAppender(store, 'sponsorships', MAX_SPONSORSHIPS).add(sponsorship)
}

/** Every decision, oldest first: the document's then the queued ones. */
function allSponsorships(store: Store): readonly Sponsorship[] {
  const pending = getBatchedAppender(store, 'sponsorships', MAX_SPONSORSHIPS).pending()
  return pending.length ? [...store.data.sponsorships, ...pending] : store.data.sponsorships
}

export type ListSponsorshipsParameters = {
  dappIds: string[]
  sponsored?: boolean
  sender?: string
  /** Newest first; default 100. */
  limit?: number
}

export function listSponsorships(store: Store, params: ListSponsorshipsParameters): Sponsorship[] {
  const dappIds = new Set(params.dappIds)
  const sender = params.sender?.toLowerCase()
  const out: Sponsorship[] = []
  const limit = params.limit ?? 100
  const all = allSponsorships(store)
  for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
    const s = all[i] as Sponsorship
    if (!dappIds.has(s.dappId)) continue
    if (params.sponsored !== undefined && s.sponsored !== params.sponsored) continue
    if (sender && s.sender.toLowerCase() !== sender) continue
    out.push(s)
  }
  return out
}

export function findSponsorship(store: Store, id: string): Sponsorship | undefined {
  return allSponsorships(store).find((s) => s.id === id)
}

export function findSponsorshipByUserOpHash(store: Store, userOpHash: string): Sponsorship | undefined {
  const wanted = userOpHash.toLowerCase()
  const all = allSponsorships(store)
  for (let i = all.length - 1; i >= 0; i--) {
    const s = all[i] as Sponsorship
    if (s.userOpHash?.toLowerCase() === wanted) return s
  }
  return undefined
}
