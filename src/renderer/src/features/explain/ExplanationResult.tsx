import { ErrorBanner, Spinner } from '../../components/Feedback'
import { ExplanationView } from './ExplanationView'
import { type ExplanationRequest, TRACE_UNSUPPORTED_CODE } from './useExplanationRequest'

/**
 * An explanation being asked for: a spinner, the service's error in its own words (a node without debug_trace*, or
 * out of reach, answers -32002 and says why), or the view.
 */
export function ExplanationResult({
  state,
  testId,
  loadingLabel,
}: {
  state: ExplanationRequest
  testId: string
  loadingLabel: string
}) {
  if (state.loading && !state.explanation) return <Spinner label={loadingLabel} />
  if (state.error)
    return (
      <ErrorBanner
        title={state.errorCode === TRACE_UNSUPPORTED_CODE ? 'Not traced' : 'No explanation'}
        message={state.error}
        testId={`${testId}-error`}
      />
    )
  if (!state.explanation) return null
  return <ExplanationView explanation={state.explanation} testId={testId} />
}
