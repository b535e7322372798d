import { isNodeUnreachable } from '../chain/node/isNodeUnreachable'
import { AppError, ChainUnavailableError } from './'

/**
 * A thrown value as the two error mappers (toRpcError, toHttpError) see it: a failure to reach the chain's node,
 * wherever it sits in the cause chain and whatever code wrapped it, is a ChainUnavailableError (503 with one
 * message); anything else stays as it is.
 */
export function classifyError(err: unknown): unknown {
  if (err instanceof ChainUnavailableError) return err
  if (err instanceof AppError && err.httpStatus < 500 && err.rpcHttpStatus < 500 && err.cause === undefined)
    return err
  return isNodeUnreachable(err) ? new ChainUnavailableError({ cause: err, outage: findOutage(err) }) : err
}

/** What the service's gate said of the outage (gateNodeRequest.ts), wherever it sits in the cause chain. */
function findOutage(err: unknown): string | undefined {
  for (let item = err, depth = 0; item && typeof item === 'object' && depth < 16; depth++) {
    const { outage, cause } = item as { outage?: unknown; cause?: unknown }
    if (typeof outage === 'string') return outage
    item = cause
  }
  return undefined
}
