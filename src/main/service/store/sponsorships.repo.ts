import type { Store } from './openStore'
import type { Sponsorship } from './schema'

/** Decisions kept; the oldest are dropped first. */
export const MAX_SPONSORSHIPS = 1000

/**
 * Appends a decision. The change is applied at once (readers see it); the returned promise resolves when it
 * is on disk. Callers on the request path do not wait for it.
 */
export function addSponsorship(store: Store, sponsorship: Sponsorship): Promise<void> {
  return store.update((doc) => {
    doc.sponsorships.push(sponsorship)
    if (doc.sponsorships.length > MAX_SPONSORSHIPS)
      doc.sponsorships.splice(0, doc.sponsorships.length - MAX_SPONSORSHIPS)
  })
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
  for (let i = store.data.sponsorships.length - 1; i >= 0 && out.length < limit; i--) {
    const s = store.data.sponsorships[i] as Sponsorship
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
  for (let i = store.data.sponsorships.length - 1; i >= 0; i--) {
    const s = store.data.sponsorships[i] as Sponsorship
    if (s.userOpHash?.toLowerCase() === wanted) return s
  }
  return undefined
}
