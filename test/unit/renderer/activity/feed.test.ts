import { describe, expect, it } from 'vitest'
import { buildFeed, filterFeed, listStatuses } from '../../../../src/renderer/src/features/activity/feed'
import { toDecisionEntry, toOperationEntry } from '../../../../src/renderer/src/features/activity/feedEntries'
import { hashOf, sponsorshipView, userOperationView } from './wireRecords'

const operation = toOperationEntry(
  userOperationView({ userOpHash: hashOf(0xabc), updatedAt: '2026-01-02T03:05:00.000Z' }),
)
const unsponsored = toOperationEntry(
  userOperationView({
    userOpHash: hashOf(5),
    seq: 2,
    status: 'pending',
    updatedAt: '2026-01-02T03:06:00.000Z',
  }),
)
// The decision spells the hash in capitals: the feed matches it to the operation all the same.
const decision = toDecisionEntry(sponsorshipView({ userOpHash: `0x${hashOf(0xabc).slice(2).toUpperCase()}` }))

describe('the activity feed', () => {
  it('lists operations and decisions newest first; an operation takes the dApp of the decision that sponsored it', () => {
    const { rows, decisionsByHash } = buildFeed([operation, unsponsored], [decision])
    expect(rows.map((r) => r.key)).toEqual([unsponsored.key, operation.key, decision.key])
    expect(rows[1]).toMatchObject({ dappName: 'Shop', apiKey: 'key.1', sponsored: true })
    expect(rows[0]).toMatchObject({ dappName: null, sponsored: null })
    expect(decisionsByHash.get(hashOf(0xabc))?.map((d) => d.key)).toEqual([decision.key])
  })

  it('filters by kind, status and a search in sender, hash or dApp name, in any case', () => {
    const { rows } = buildFeed([operation, unsponsored], [decision])
    const keys = (kind: 'all' | 'userOperation' | 'sponsorship', status: string, search: string) =>
      filterFeed(rows, { kind, status, search }).map((r) => r.key)
    expect(keys('sponsorship', '', '')).toEqual([decision.key])
    expect(keys('all', 'received', '')).toEqual([unsponsored.key])
    expect(keys('all', '', ' SHOP ')).toEqual([operation.key, decision.key])
    expect(keys('userOperation', '', hashOf(5).slice(-6))).toEqual([unsponsored.key])
    expect(keys('all', '', 'nobody')).toEqual([])
  })

  it("filters by chain: one chain's operations and decisions, or every chain's for none", () => {
    const onOtherChain = toOperationEntry(
      userOperationView({
        userOpHash: hashOf(7),
        seq: 3,
        chainId: 31338,
        updatedAt: '2026-01-02T03:07:00.000Z',
      }),
    )
    const { rows } = buildFeed([operation, onOtherChain], [decision])
    const keys = (chainId: number | null | undefined) =>
      filterFeed(rows, { kind: 'all', status: '', search: '', chainId }).map((r) => r.key)
    expect(onOtherChain.chainId).toBe(31338)
    expect(keys(31338)).toEqual([onOtherChain.key])
    expect(keys(31337)).toEqual([operation.key, decision.key])
    expect(keys(null)).toEqual([onOtherChain.key, operation.key, decision.key])
    expect(keys(undefined)).toEqual(keys(null))
  })

  it("offers the rows' statuses, each once, sorted", () => {
    expect(listStatuses(buildFeed([operation, unsponsored], [decision]).rows)).toEqual([
      'mined',
      'received',
      'sponsored',
    ])
  })
})
