import type { BalanceChange } from '../../../../shared/api/explanation'
import { Hex } from '../../components/Mono'
import { formatEth, keyed } from '../../lib/format'
import { formatDelta } from './explanationParts'

/** ETH in ETH; a token's amount in its base units (the service does not send its decimals). */
function formatAmount(change: BalanceChange, amount: string | null): string {
  if (amount === null) return '—'
  if (change.asset !== 'ETH') return amount
  try {
    return formatEth(BigInt(amount), 8)
  } catch {
    return amount
  }
}

/** The balances the operation changed: every address touched, per asset, before, after and the difference. */
export function BalanceChanges({ changes }: { changes: BalanceChange[] }) {
  if (changes.length === 0)
    return (
      <div className="muted" data-testid="explain-balances-none">
        No balance changed.
      </div>
    )
  return (
    <table className="table compact" data-testid="explain-balances">
      <thead>
        <tr>
          <th>Address</th>
          <th>Asset</th>
          <th>Before</th>
          <th>After</th>
          <th>Change</th>
        </tr>
      </thead>
      <tbody>
        {keyed(changes).map(({ item: c, key }) => (
          <tr key={key} data-testid="explain-balance">
            <td>
              {c.contract ? <strong>{c.contract} </strong> : null}
              <Hex value={c.address} />
            </td>
            <td className="nowrap">{c.asset === 'ETH' ? 'ETH' : (c.symbol ?? <Hex value={c.asset} />)}</td>
            <td>
              <code className="mono">{formatAmount(c, c.before)}</code>
            </td>
            <td>
              <code className="mono">{formatAmount(c, c.after)}</code>
            </td>
            <td>
              <code className={`mono ${c.delta.startsWith('-') ? 'bad-text' : 'ok-text'}`}>
                {formatDelta(formatAmount(c, c.delta))}
              </code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
