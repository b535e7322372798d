import { explainAaError } from '../../../shared/aaErrors'

/** Plain-words explanation and likely fix for an EntryPoint AAxx failure found in `message`. */
export function AaExplanation({
  message,
  testId = 'aa-explanation',
}: {
  message: string | null | undefined
  testId?: string
}) {
  const aa = explainAaError(message)
  if (!aa) return null
  return (
    <div className="explain" data-testid={testId}>
      <h3>
        {aa.code} · {aa.title} ({aa.entity})
      </h3>
      <div>
        <strong>What happened:</strong> {aa.meaning}
      </div>
      <div>
        <strong>Likely fix:</strong> {aa.fix}
      </div>
    </div>
  )
}
