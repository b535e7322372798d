import type { Sponsorship } from '../../../shared/api/sponsorships'
import { SMART_CONTRACT_DATA_NOT_FOUND } from '../policy/checkWhitelist'
import { SponsorshipRejectedError } from './errors'

/** Biconomy's hosted wording; the SDK's non-strict mode turns an error containing it into paymasterAndData "0x". */
export const NO_POLICIES_WERE_SET = 'No policies were set'

/**
 * The JSON-RPC error for a SPONSORED request the policies reject (pm_getFeeQuoteOrData, ERC-7677). The message
 * keeps the recorded reason and contains one of Biconomy's phrases, so the SDK's fallback still works.
 */
export function rejectSponsorship(sponsorship: Sponsorship): SponsorshipRejectedError {
  const reason = sponsorship.reason ?? 'Not sponsored'
  const step = sponsorship.steps.find((s) => s.outcome === 'fail')?.step ?? null
  const message = reason.includes(SMART_CONTRACT_DATA_NOT_FOUND)
    ? `Not sponsored: ${reason}`
    : `Not sponsored: ${reason}. ${NO_POLICIES_WERE_SET} that allow sponsoring this UserOperation`
  return new SponsorshipRejectedError(message, { data: { sponsorshipId: sponsorship.id, step, reason } })
}
