import type { SponsorshipStep } from '../../../shared/api/sponsorships'

/** Steps of the SPONSORED decision, in evaluation order. */
export const SPONSORSHIP_STEPS = ['dapp', 'whitelist', 'limits', 'estimate', 'gasTank', 'webhook'] as const
export type SponsorshipStepName = (typeof SPONSORSHIP_STEPS)[number] | 'token'

export type StepOutcome = Pick<SponsorshipStep, 'outcome' | 'detail'>

export type { SponsorshipStep }
