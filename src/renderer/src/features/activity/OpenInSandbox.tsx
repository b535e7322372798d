import { useState } from 'react'
import type { UserOperationView } from '../../../../shared/api/userOperations'
import { errorMessage } from '../../api/http'
import { rpcRequest } from '../../api/rpc'
import { ErrorBanner } from '../../components/Feedback'
import { useRouteStore } from '../../stores/useRouteStore'
import { useServiceStore } from '../../stores/useServiceStore'
import { chainUrlsOf, runsSeveralChains } from '../chains/chainList'
import { bringUpToDate } from '../sandbox/replayChainState'
import { toReplayFields, useReplayStore } from '../sandbox/useReplayStore'

/**
 * The operation's wire fields: from its record until it is mined, then read back from its bundle transaction
 * (eth_getUserOperationByHash), as the record keeps no copy of a mined operation.
 */
async function readUserOperation(
  record: UserOperationView,
  bundlerUrl: string,
): Promise<Record<string, unknown>> {
  if (record.userOperation) return record.userOperation
  const found = await rpcRequest<{ userOperation: Record<string, unknown> } | null>(
    bundlerUrl,
    'eth_getUserOperationByHash',
    [record.userOpHash],
  )
  if (!found) throw new Error('The bundler no longer has this operation: its fields cannot be read back.')
  return found.userOperation
}

/**
 * Opens the Sandbox with the operation's fields, to change a limit or a call and simulate again: its nonce and
 * deployment brought up to date with the chain (a mined operation used its nonce and deployed its account).
 */
export function OpenInSandbox({ record }: { record: UserOperationView }) {
  // The bundler of the operation's chain.
  const bundlerUrl = useServiceStore((s) => chainUrlsOf(s.status, record.chainId).bundlerUrl || undefined)
  const severalChains = useServiceStore((s) => runsSeveralChains(s.status))
  const navigate = useRouteStore((s) => s.navigate)
  const openReplay = useReplayStore((s) => s.open)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function open() {
    if (!bundlerUrl) return
    setBusy(true)
    setError(null)
    try {
      const sent = toReplayFields(await readUserOperation(record, bundlerUrl))
      const { fields, changes } = await bringUpToDate(bundlerUrl, record.entryPoint, sent)
      openReplay({
        fromUserOpHash: record.userOpHash,
        entryPoint: record.entryPoint,
        ...(severalChains ? { chainId: record.chainId } : {}),
        fields,
        changes,
      })
      navigate('sandbox')
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button
        type="button"
        className="btn btn-small btn-primary"
        disabled={!bundlerUrl || busy}
        data-testid="operation-open-sandbox"
        onClick={() => void open()}
      >
        Open in Sandbox
      </button>
      <ErrorBanner message={error} testId="operation-open-sandbox-error" />
    </>
  )
}
