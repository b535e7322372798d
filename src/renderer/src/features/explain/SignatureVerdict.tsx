import type { Address } from 'viem'
import type { SignatureVerdict as Verdict } from '../../../../shared/api/explanation'
import { Badge } from '../../components/Feedback'
import { Hex } from '../../components/Mono'

/** How each verdict reads: a simulation without a signature says so, rather than "invalid". */
const VERDICTS: Record<Verdict, { text: string; tone: 'ok' | 'bad' | 'warn' }> = {
  valid: { text: 'signature valid', tone: 'ok' },
  invalid: { text: 'signature invalid', tone: 'bad' },
  missing: { text: 'simulated without a signature', tone: 'warn' },
}

/** The signature verdict of a validation's validationData, and the aggregator it named if any. */
export function SignatureVerdict({
  signature,
  aggregator,
  testId,
}: {
  signature: Verdict | undefined
  aggregator: Address | undefined
  testId: string
}) {
  const verdict = signature ? VERDICTS[signature] : undefined
  return (
    <>
      {verdict ? (
        <span data-testid={testId} data-signature={signature}>
          <Badge tone={verdict.tone}>{verdict.text}</Badge>
        </span>
      ) : null}
      {aggregator ? (
        <span className="small" data-testid={`${testId}-aggregator`}>
          <span className="muted">aggregator </span>
          <Hex value={aggregator} />
        </span>
      ) : null}
    </>
  )
}
