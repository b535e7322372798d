import { describe, expect, it } from 'vitest'
import {
  labelOperationStatus,
  mergeEntries,
  parseEntryKey,
  shownChainTime,
  statusTone,
  toDecisionEntry,
  toOperationEntry,
  withFreshRecord,
} from '../../../../src/renderer/src/features/activity/feedEntries'
import { hashOf, sponsorshipView, userOperationView } from './wireRecords'

describe('feed entries of the activity feed', () => {
  it('reads a UserOperation into a row: its key, time, status in the console words and the gas it cost', () => {
    const entry = toOperationEntry(userOperationView())
    expect(entry).toMatchObject({
      key: `op:${hashOf(1)}`,
      kind: 'userOperation',
      at: Date.parse('2026-01-02T03:04:06.000Z'),
      status: 'mined',
      userOpHash: hashOf(1),
      gasCostWei: '175000000000000',
      seq: 1,
      reason: null,
      dappName: null,
    })
  })

  it("gives a rejected operation's reason, else a reverted call's, and no empty reason", () => {
    const rejected = userOperationView({
      status: 'rejected',
      failure: { code: -32500, aaCode: 'AA21', reason: "AA21 didn't pay prefund" },
      revertReason: 'ignored',
    })
    expect(toOperationEntry(rejected)).toMatchObject({
      status: 'rejected',
      reason: "AA21 didn't pay prefund",
    })
    expect(toOperationEntry(userOperationView({ revertReason: 'Ownable: caller' })).reason).toBe(
      'Ownable: caller',
    )
    expect(toOperationEntry(userOperationView({ revertReason: '' })).reason).toBeNull()
  })

  it('reads a decision into a row with its verdict, dApp and mode', () => {
    expect(toDecisionEntry(sponsorshipView())).toMatchObject({
      key: 'dec:dec-1',
      kind: 'sponsorship',
      status: 'sponsored',
      sponsored: true,
      dappName: 'Shop',
      apiKey: 'key.1',
      mode: 'SPONSORED',
      at: Date.parse('2026-01-02T03:04:00.000Z'),
    })
    const declined = toDecisionEntry(
      sponsorshipView({ sponsored: false, reason: 'limit reached', userOpHash: '' }),
    )
    expect(declined).toMatchObject({ status: 'not sponsored', reason: 'limit reached', userOpHash: null })
  })

  it('names every bundler status in the console words and leaves an unknown one as it is', () => {
    expect(
      ['pending', 'submitted', 'included', 'failed', 'rejected', 'dropped', 'replaced'].map(
        labelOperationStatus,
      ),
    ).toEqual(['received', 'bundled', 'mined', 'failed', 'rejected', 'dropped', 'replaced'])
    expect(labelOperationStatus('estimated')).toBe('estimated')
  })

  it('merges pages by key: a newer read of a row replaces it, the others stay', () => {
    const first = toOperationEntry(userOperationView({ status: 'pending' }))
    const other = toOperationEntry(userOperationView({ userOpHash: hashOf(9), seq: 2 }))
    const merged = mergeEntries(mergeEntries(undefined, [first, other]), [
      toOperationEntry(userOperationView({ status: 'included' })),
    ])
    expect([...merged.values()].map((e) => [e.id, e.status])).toEqual([
      [hashOf(1), 'mined'],
      [hashOf(9), 'mined'],
    ])
  })

  it('reads a detail key into the answer it names, a colon in the id kept', () => {
    expect(parseEntryKey(`op:${hashOf(1)}`)).toEqual({ kind: 'userOperation', id: hashOf(1) })
    expect(parseEntryKey('dec:a:b')).toEqual({ kind: 'sponsorship', id: 'a:b' })
  })

  it("keeps the feed row's fields and takes a fresher record of the same kind, else the fresh entry", () => {
    const row = { ...toOperationEntry(userOperationView({ status: 'pending' })), dappName: 'Shop' }
    const fresh = toOperationEntry(userOperationView({ status: 'included' }))
    const shown = withFreshRecord(row, fresh)
    expect(shown).toMatchObject({ status: 'received', dappName: 'Shop' })
    expect(shown.kind === 'userOperation' && shown.record.status).toBe('included')
    const decision = toDecisionEntry(sponsorshipView())
    expect(withFreshRecord(row, decision)).toBe(decision)
  })

  it('colours good, bad and waiting statuses', () => {
    expect(['mined', 'sponsored', 'not sponsored', 'dropped', 'bundled', 'replaced'].map(statusTone)).toEqual(
      ['ok', 'ok', 'bad', 'bad', 'info', 'neutral'],
    )
  })

  it('shows chain time beside wall time once the chain is a minute or more from it, and not for records without it', () => {
    const wall = Date.parse('2026-01-02T03:04:06.000Z')
    const later = toOperationEntry(userOperationView({ chainTime: wall / 1000 + 86_400 }))
    expect(later.chainAt).toBe(wall + 86_400_000)
    expect(shownChainTime(later)).toBe(wall + 86_400_000)
    // A block's time a few seconds ahead of the wall clock is not worth a second time.
    expect(shownChainTime(toOperationEntry(userOperationView({ chainTime: wall / 1000 + 5 })))).toBeNull()
    expect(shownChainTime(toOperationEntry(userOperationView()))).toBeNull()
    const decision = toDecisionEntry(sponsorshipView({ chainTime: wall / 1000 - 3_600 }))
    expect(decision.chainAt).toBe(wall - 3_600_000)
  })
})
