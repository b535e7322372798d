import type { UserOperationView } from '../../../../shared/api/userOperations'
import { Badge } from '../../components/Feedback'
import { Hex } from '../../components/Mono'
import { formatEth, keyed } from '../../lib/format'
import { useCallNames } from '../../lib/useCallNames'

/** The calls the account makes (decoded callData), named by the dApps' contracts when they are known. */
export function OperationCalls({ calls }: { calls: UserOperationView['calls'] }) {
  const names = useCallNames()
  if (calls === null) return <div className="muted">The account's callData could not be decoded.</div>
  if (calls.length === 0) return <div className="muted">No call (deploy only).</div>
  return (
    <table className="table compact" data-testid="operation-calls">
      <thead>
        <tr>
          <th>To</th>
          <th>Method</th>
          <th>Value</th>
        </tr>
      </thead>
      <tbody>
        {keyed(calls).map(({ item: c, key }) => {
          const name = names(c.to, c.selector)
          return (
            <tr key={key}>
              <td>
                {name ? <strong>{name.contract} </strong> : null}
                <Hex value={c.to} />
              </td>
              <td>
                {name ? (
                  <>
                    <code className="mono">{name.signature}</code>{' '}
                    {name.whitelisted ? (
                      <Badge tone="ok">whitelisted</Badge>
                    ) : (
                      <Badge tone="warn">not whitelisted</Badge>
                    )}
                  </>
                ) : (
                  <code className="mono">{c.selector ?? '(transfer)'}</code>
                )}
              </td>
              <td>{formatEth(c.value)}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
