import { useCallback, useRef, useState } from 'react'
import type { Explanation } from '../../../../shared/api/explanation'
import { ApiError, errorMessage } from '../../api/http'
import { rpcRequest } from '../../api/rpc'

/** JSON-RPC -32002: the node cannot trace (no debug_traceCall / debug_traceTransaction) or is out of reach. */
export const TRACE_UNSUPPORTED_CODE = -32002

export type ExplanationRequest = {
  explanation: Explanation | null
  loading: boolean
  /** The service's message when the request failed (a node that cannot trace says so here). */
  error: string | null
  /** The JSON-RPC error code, when the failure was an RPC error. */
  errorCode: number | null
}

export const IDLE_EXPLANATION: ExplanationRequest = {
  explanation: null,
  loading: false,
  error: null,
  errorCode: null,
}

/**
 * Asks the bundler for an explanation (opstation_traceUserOperation with `[userOpHash]`,
 * opstation_simulateUserOperation with `[userOperation, entryPoint]`): the answer, or the service's error message.
 */
export async function requestExplanation(
  bundlerUrl: string,
  method: 'opstation_traceUserOperation' | 'opstation_simulateUserOperation',
  params: unknown[],
): Promise<ExplanationRequest> {
  try {
    const explanation = await rpcRequest<Explanation>(bundlerUrl, method, params)
    return { explanation, loading: false, error: null, errorCode: null }
  } catch (err) {
    return {
      explanation: null,
      loading: false,
      error: errorMessage(err),
      errorCode: err instanceof ApiError ? (err.code ?? null) : null,
    }
  }
}

/** One explanation at a time, with its loading and error states; an answer to an older request is ignored. */
export function useExplanationRequest() {
  const [state, setState] = useState<ExplanationRequest>(IDLE_EXPLANATION)
  const latest = useRef(0)
  const request = useCallback(async (...args: Parameters<typeof requestExplanation>) => {
    const id = ++latest.current
    setState((s) => ({ ...s, loading: true, error: null, errorCode: null }))
    const answer = await requestExplanation(...args)
    if (id === latest.current) setState(answer)
  }, [])
  return { ...state, request }
}
