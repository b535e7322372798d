import type { SponsorshipStep } from '../../../shared/api/sponsorships'
import type { SponsorshipStepName, StepOutcome } from './types'

export type StepLog = {
  readonly steps: SponsorshipStep[]
  /** Records a step; returns whether it passed (or was skipped). */
  add: (step: SponsorshipStepName, outcome: StepOutcome) => boolean
  /** Records the remaining steps as skipped after a failure. */
  skip: (steps: readonly SponsorshipStepName[], detail: string) => void
  /** The first failing step, if any. */
  failure: () => SponsorshipStep | undefined
}

/** Collects the decision's steps in evaluation order, each with its outcome and detail. */
export function createStepLog(): StepLog {
  const steps: SponsorshipStep[] = []
  return {
    steps,
    add(step, outcome) {
      steps.push({ step, ...outcome })
      return outcome.outcome !== 'fail'
    },
    skip(names, detail) {
      for (const step of names)
        if (!steps.some((s) => s.step === step)) steps.push({ step, outcome: 'skip', detail })
    },
    failure: () => steps.find((s) => s.outcome === 'fail'),
  }
}
