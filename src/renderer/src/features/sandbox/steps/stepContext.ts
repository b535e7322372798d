import { ApiError, errorMessage } from '../../../api/http'
import type { RpcExchange } from '../../../api/rpc'
import type { Exchange, Run, RunConfig } from '../run'

/** What a step works with: the run so far, and how it reports. A step throws when it fails. */
export type StepContext = {
  run: Run
  /** Shows a request and its answer in the step. */
  log: (exchange: Exchange) => void
  /** Changes the run: the operation as it grows, its hash, its receipt, why it was declined. */
  update: (change: Partial<Run>) => void
  /** The step's short result line (or its progress while it waits). */
  note: (text: string) => void
}

export type StepFunction = (context: StepContext) => Promise<void>

/** A JSON-RPC exchange as a step shows it. */
export function rpcExchange(e: RpcExchange): Exchange {
  return {
    label: e.request.method,
    url: e.url,
    request: e.request,
    response: e.response,
    httpStatus: e.httpStatus,
    ms: e.ms,
  }
}

/** A console API call whose request and response (or error) are shown in the step. */
export async function logConsoleCall<T>(
  log: StepContext['log'],
  exchange: { label: string; url: string; request: unknown },
  call: () => Promise<T>,
): Promise<T> {
  const started = performance.now()
  try {
    const result = await call()
    log({ ...exchange, response: result, ms: Math.round(performance.now() - started) })
    return result
  } catch (err) {
    log({
      ...exchange,
      response: { error: errorMessage(err) },
      httpStatus: err instanceof ApiError ? err.status : undefined,
      ms: Math.round(performance.now() - started),
    })
    throw err
  }
}

/** The run's operation, once built. */
export function requireOperation(run: Run): NonNullable<Run['op']> {
  if (!run.op) throw new Error('build the operation first')
  return run.op
}

/** The run's operation and its EntryPoint, once built. */
export function requireOperationAndEntryPoint(run: Run): { op: NonNullable<Run['op']>; entryPoint: string } {
  if (!run.op || !run.entryPoint) throw new Error('build the operation first')
  return { op: run.op, entryPoint: run.entryPoint }
}

/** The query of a console call on the run's chain (`?chainId=`, with several chains; none otherwise). */
export function chainQuery(config: Pick<RunConfig, 'chainId'>): string {
  return config.chainId === undefined ? '' : `?chainId=${config.chainId}`
}
