import { useEffect } from 'react'
import { ErrorBanner, Spinner } from '../../components/Feedback'
import { DecisionDetail } from './DecisionDetail'
import type { DecisionsByHash } from './feed'
import { type FeedEntry, withFreshRecord } from './feedEntries'
import { OperationDetail } from './OperationDetail'
import { useActivityStore } from './useActivityStore'

/**
 * The selected row's detail: the feed's entry with its record read again on its own (a row older than the feed's
 * pages is read from the service alone).
 */
export function ActivityDetail({
  selected,
  rows,
  decisionsByHash,
}: {
  selected: string
  rows: FeedEntry[]
  decisionsByHash: DecisionsByHash
}) {
  const entry = rows.find((r) => r.key === selected)
  const detail = useActivityStore((s) => s.details[selected])
  const loadDetail = useActivityStore((s) => s.loadDetail)
  const updatedAt = entry?.at
  // Reload when the feed shows a newer state of the record.
  // biome-ignore lint/correctness/useExhaustiveDependencies: updatedAt is the trigger, not an input
  useEffect(() => {
    void loadDetail(selected)
  }, [selected, updatedAt, loadDetail])
  const fresh = detail?.data
  const shown = entry && fresh ? withFreshRecord(entry, fresh) : (entry ?? fresh)
  if (!shown) {
    if (detail?.error) return <ErrorBanner message={detail.error} />
    return <Spinner label="Loading…" />
  }
  return shown.kind === 'userOperation' ? (
    <OperationDetail
      entry={shown}
      decisions={shown.userOpHash ? (decisionsByHash.get(shown.userOpHash.toLowerCase()) ?? []) : []}
    />
  ) : (
    <DecisionDetail entry={shown} />
  )
}
