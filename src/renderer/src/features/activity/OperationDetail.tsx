import { AaExplanation } from '../../components/AaExplanation'
import { Badge, ErrorBanner } from '../../components/Feedback'
import { JsonView } from '../../components/JsonView'
import { Kv } from '../../components/Kv'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { formatDateTime, formatTime, keyed } from '../../lib/format'
import { type DecisionEntry, labelOperationStatus, type OperationEntry, statusTone } from './feedEntries'
import { OperationCalls } from './OperationCalls'
import { OperationExplanation } from './OperationExplanation'
import { OperationGas } from './OperationGas'
import { PolicySteps } from './PolicySteps'

const BAD_STEPS = new Set(['failed', 'rejected', 'dropped'])

/**
 * A UserOperation: its status and sponsorship, who sent it on which EntryPoint, why it failed, its explanation
 * (phases, call tree, balance changes, events), its calls, timeline, gas, receipt and the sponsorship decisions
 * behind it.
 */
export function OperationDetail({ entry, decisions }: { entry: OperationEntry; decisions: DecisionEntry[] }) {
  const { record } = entry
  const failure = record.failure
  const problem = failure?.reason ?? record.revertReason ?? null
  return (
    <div className="stack" data-testid="operation-detail">
      <div className="kv-grid">
        <Kv label="Status">
          <Badge tone={statusTone(entry.status)} testId="operation-status">
            {entry.status}
          </Badge>
        </Kv>
        <Kv label="Sponsorship">
          <span data-testid="operation-sponsorship">
            {decisions.length === 0 ? (
              <span className="muted">
                {record.paymaster ? 'paymaster (no decision recorded here)' : 'self-paid'}
              </span>
            ) : (
              <Badge tone={decisions[0]?.sponsored ? 'ok' : 'bad'}>
                {decisions[0]?.sponsored ? 'sponsored' : 'not sponsored'}
              </Badge>
            )}
          </span>
        </Kv>
        <Kv label="dApp">
          <span>{entry.dappName ?? '—'}</span>
        </Kv>
        <Kv label="Updated">
          <span>{formatDateTime(entry.at)}</span>
        </Kv>
      </div>
      <div className="kv-grid">
        <Kv label="userOpHash">
          <Hex value={entry.userOpHash} copy testId="operation-hash" />
        </Kv>
        <Kv label="Sender">
          <Hex value={entry.sender} copy />
        </Kv>
        <Kv label="Account">
          <span data-testid="operation-account">{record.account ?? '—'}</span>
        </Kv>
        <Kv label="Nonce">
          <span className="mono">{record.nonce}</span>
        </Kv>
        <Kv label="EntryPoint">
          <span data-testid="operation-entry-point">
            {record.entryPointVersion ? `v${record.entryPointVersion} ` : ''}
            <Hex value={record.entryPoint} />
          </span>
        </Kv>
        {record.eip7702Delegate ? (
          <Kv label="EIP-7702 delegate">
            <Hex value={record.eip7702Delegate} />
          </Kv>
        ) : null}
        <Kv label="Paymaster">
          <Hex value={record.paymaster} />
        </Kv>
        {record.factory ? (
          <Kv label="Factory (deploys)">
            <Hex value={record.factory} />
          </Kv>
        ) : null}
      </div>
      {problem ? (
        <>
          <ErrorBanner
            title={failure ? `Rejected (code ${failure.code})` : 'Call reverted'}
            message={problem}
            testId="operation-failure"
          />
          <AaExplanation message={failure?.aaCode ?? problem} />
          {failure?.rules?.length ? (
            <div className="muted small">Rules: {failure.rules.join(', ')}</div>
          ) : null}
        </>
      ) : null}
      <h3>Explanation</h3>
      <OperationExplanation record={record} />
      <h3>Calls</h3>
      <OperationCalls calls={record.calls} />
      <h3>Timeline</h3>
      <ul className="timeline" data-testid="operation-timeline">
        {keyed(record.timeline).map(({ item: t, key }) => (
          <li key={key} className={t.status === 'included' ? 'ok' : BAD_STEPS.has(t.status) ? 'bad' : ''}>
            <strong>{labelOperationStatus(t.status)}</strong>{' '}
            <span className="muted">{formatTime(t.at)}</span>
            {t.note ? <div className="small muted">{t.note}</div> : null}
          </li>
        ))}
      </ul>
      <h3>Gas: estimated versus used</h3>
      <OperationGas record={record} />
      <h3>Receipt</h3>
      {record.transactionHash ? (
        <div className="kv-grid" data-testid="operation-receipt">
          <Kv label="Transaction">
            <Hex value={record.transactionHash} copy />
          </Kv>
          <Kv label="Block">
            <span className="mono">{record.blockNumber ?? '—'}</span>
          </Kv>
          <Kv label="Block hash">
            <Hex value={record.blockHash} />
          </Kv>
        </div>
      ) : (
        <div className="muted">
          {entry.status === 'received'
            ? 'In the mempool: no bundle yet.'
            : entry.status === 'bundled'
              ? 'In a bundle that is not mined yet.'
              : 'No receipt.'}
        </div>
      )}
      {decisions.length ? (
        <>
          <h3>Sponsorship decision</h3>
          {decisions.map((d) => (
            <div key={d.key} className="card">
              <div className="card-head">
                <span>
                  <Badge tone={statusTone(d.status)}>{d.status}</Badge>{' '}
                  <span className="muted small">{formatTime(d.at)}</span>
                </span>
                <Link to={`activity/${d.key}`}>Open</Link>
              </div>
              {d.reason ? <div className="small">{d.reason}</div> : null}
              <PolicySteps steps={d.record.steps} />
            </div>
          ))}
        </>
      ) : null}
      <details className="details">
        <summary>Raw record</summary>
        <JsonView value={record} />
      </details>
    </div>
  )
}
