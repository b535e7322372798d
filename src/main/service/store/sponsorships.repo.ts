import type { Sponsorship } from '../../../shared/api/sponsorships'
import { appendSoon } from './appendSoon'
import type { Store } from './openStore'

/** Decisions kept; the oldest are dropped first (the store rewrites the whole document on every change). */
export const MAX_SPONSORSHIPS = 500

/**
 * Keeps a decision: readable at once (list/find below) and written with the store's next write (appendSoon.ts), so
 * the request path never waits for, or pays for, a whole-document write.
 */
export function addSponsorship(store: Store, sponsorship: Sponsorship): void {
  appendSoon(store, 'sponsorships', sponsorship, MAX_SPONSORSHIPS)
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
  const all = store.data.sponsorships
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
  return store.data.sponsorships.find((s) => s.id === id)
}

export function findSponsorshipByUserOpHash(store: Store, userOpHash: string): Sponsorship | undefined {
  const wanted = userOpHash.toLowerCase()
  const all = store.data.sponsorships
  for (let i = all.length - 1; i >= 0; i--) {
    const s = all[i] as Sponsorship
    if (s.userOpHash?.toLowerCase() === wanted) return s
  }
  return undefined
}
