import type { SponsorshipView } from '../../../../shared/api/sponsorships'
import { formatDateTime } from '../../lib/format'

/**
 * The window a sponsorship was signed for, as the decision shows it: v0.9 block numbers (valid in the blocks after
 * validAfterBlock up to validUntilBlock), or the time it ends; null when none was signed.
 */
export function describeSignedWindow({
  blockWindow,
  validUntil,
}: Pick<SponsorshipView, 'blockWindow' | 'validUntil'>): string | null {
  if (blockWindow)
    return `blocks ${blockWindow.validAfterBlock + 1}–${blockWindow.validUntilBlock} (valid after block ${blockWindow.validAfterBlock}, until block ${blockWindow.validUntilBlock})`
  return validUntil === null ? null : `until ${formatDateTime(validUntil)}`
}
