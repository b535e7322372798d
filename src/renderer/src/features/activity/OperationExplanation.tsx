import { useEffect } from 'react'
import type { UserOperationView } from '../../../../shared/api/userOperations'
import { useServiceStore } from '../../stores/useServiceStore'
import { chainUrlsOf } from '../chains/chainList'
import { ExplanationResult } from '../explain/ExplanationResult'
import { useExplanationRequest } from '../explain/useExplanationRequest'
import { OpenInSandbox } from './OpenInSandbox'

const FAILED = new Set(['failed', 'rejected', 'dropped'])

/**
 * The operation explained (opstation_traceUserOperation, asked when its page opens and again when its status
 * changes), and for a failed one the way to the Sandbox with its fields.
 */
export function OperationExplanation({ record }: { record: UserOperationView }) {
  // The bundler of the operation's chain.
  const bundlerUrl = useServiceStore((s) => chainUrlsOf(s.status, record.chainId).bundlerUrl || undefined)
  const { request, ...state } = useExplanationRequest()
  const { userOpHash, status } = record
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new status is the trigger to trace again
  useEffect(() => {
    if (bundlerUrl) void request(bundlerUrl, 'opstation_traceUserOperation', [userOpHash])
  }, [bundlerUrl, userOpHash, status, request])
  return (
    <div className="stack" data-testid="operation-explanation-section">
      <div className="inline-actions">
        <button
          type="button"
          className="btn btn-small"
          disabled={!bundlerUrl || state.loading}
          data-testid="operation-explain-again"
          onClick={() => bundlerUrl && void request(bundlerUrl, 'opstation_traceUserOperation', [userOpHash])}
        >
          Trace again
        </button>
        {FAILED.has(status) ? <OpenInSandbox record={record} /> : null}
      </div>
      <ExplanationResult state={state} testId="operation-explanation" loadingLabel="Tracing the operation…" />
    </div>
  )
}
