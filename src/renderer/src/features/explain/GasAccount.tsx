import type { GasAccount as Account } from '../../../../shared/api/explanation'
import { formatEth, formatNumber, keyed } from '../../lib/format'

/**
 * The limits the operation carried against what it used (the EntryPoint's actualGasUsed and actualGasCost), and
 * its preVerificationGas carried against what this service's calculator asks, broken into its parts.
 */
export function GasAccount({ gas }: { gas: Account }) {
  const pvg = gas.preVerificationGas
  const short = BigInt(pvg.carried) < BigInt(pvg.calculated)
  return (
    <div className="stack gas-account" data-testid="explain-gas">
      <table className="table compact" data-testid="explain-gas-limits">
        <thead>
          <tr>
            <th>Limit</th>
            <th>Carried</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(gas.limits).map(([field, value]) => (
            <tr key={field} data-testid="explain-gas-limit" data-field={field}>
              <td>
                <code className="mono">{field}</code>
              </td>
              <td className="mono">{formatNumber(value)}</td>
            </tr>
          ))}
          <tr>
            <td>
              <strong>total</strong>
            </td>
            <td className="mono">
              <strong>{formatNumber(gas.limitTotal)}</strong>
            </td>
          </tr>
        </tbody>
      </table>
      <div data-testid="explain-gas-used">
        {gas.actualGasUsed === null ? (
          <span className="muted">Not charged: the operation did not reach the EntryPoint's accounting.</span>
        ) : (
          <>
            Used <strong className="mono">{formatNumber(gas.actualGasUsed)}</strong> of{' '}
            <span className="mono">{formatNumber(gas.limitTotal)}</span> carried
            {gas.usedPercent !== null ? ` (${gas.usedPercent}%)` : ''}
            {gas.actualGasCost !== null ? (
              <span className="muted">, costing {formatEth(BigInt(gas.actualGasCost), 8)} ETH</span>
            ) : null}
          </>
        )}
      </div>
      <div data-testid="explain-gas-pvg">
        <div>
          <code className="mono">preVerificationGas</code>{' '}
          <span className={`mono${short ? ' bad-text' : ''}`} data-testid="explain-gas-pvg-carried">
            {formatNumber(pvg.carried)}
          </span>{' '}
          carried,{' '}
          <span className="mono" data-testid="explain-gas-pvg-calculated">
            {formatNumber(pvg.calculated)}
          </span>{' '}
          calculated <span className="muted small">({pvg.calculator})</span>
          {short ? <span className="bad-text small"> below what the calculator asks</span> : null}
        </div>
        <ul className="small gas-parts" data-testid="explain-gas-pvg-parts">
          {keyed(pvg.parts).map(({ item: part, key }) => (
            <li key={key} data-testid="explain-gas-pvg-part">
              {part.name}: <span className="mono">{formatNumber(Math.round(part.gas))}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
