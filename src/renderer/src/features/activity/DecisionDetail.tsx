import { Badge } from '../../components/Feedback'
import { JsonView } from '../../components/JsonView'
import { Kv } from '../../components/Kv'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { formatDateTime, shortHex } from '../../lib/format'
import { type DecisionEntry, statusTone } from './feedEntries'
import { GasLimits } from './GasLimits'
import { listGasLimits } from './gasLimits'
import { PolicySteps } from './PolicySteps'
import { describeSignedWindow } from './signedWindow'

/** A sponsorship decision: its verdict, the operation it was for, its policy steps and the gas limits returned. */
export function DecisionDetail({ entry }: { entry: DecisionEntry }) {
  const { record } = entry
  const signedWindow = describeSignedWindow(record)
  return (
    <div className="stack" data-testid="decision-detail">
      <div className="kv-grid">
        <Kv label="Decision">
          <Badge tone={statusTone(entry.status)} testId="decision-verdict">
            {entry.status}
          </Badge>
        </Kv>
        <Kv label="dApp">
          <span>{entry.dappName ?? '—'}</span>
        </Kv>
        <Kv label="Mode">
          <span>{record.mode}</span>
        </Kv>
        <Kv label="Method">
          <code className="mono">{record.method}</code>
        </Kv>
        <Kv label="Time">
          <span>{formatDateTime(entry.at)}</span>
        </Kv>
      </div>
      <div className="kv-grid">
        <Kv label="Sender">
          <Hex value={entry.sender} copy />
        </Kv>
        <Kv label="Nonce">
          <span className="mono">{record.nonce}</span>
        </Kv>
        <Kv label="EntryPoint">
          <span data-testid="decision-entry-point">
            <Badge tone="info">v{record.entryPointVersion}</Badge>
          </span>
        </Kv>
        {signedWindow ? (
          <Kv label="Signed window">
            <span data-testid="decision-window">{signedWindow}</span>
          </Kv>
        ) : null}
        {entry.userOpHash ? (
          <Kv label="UserOperation">
            <Link to={`activity/op:${entry.userOpHash}`}>
              <code className="mono">{shortHex(entry.userOpHash, 10, 6)}</code>
            </Link>
          </Kv>
        ) : null}
      </div>
      {entry.reason ? (
        <div className="banner banner-warn" data-testid="decision-reason">
          <strong>Why not sponsored:</strong> {entry.reason}
        </div>
      ) : null}
      <h3>Policy steps</h3>
      <PolicySteps steps={record.steps} />
      {record.gas ? (
        <>
          <h3>Gas limits returned</h3>
          <GasLimits limits={listGasLimits(record.gas)} testId="decision-gas" />
        </>
      ) : null}
      {record.webhookCallId ? (
        <div className="muted small">
          Webhook call <code className="mono">{record.webhookCallId}</code> (see the dApp's webhook log)
        </div>
      ) : null}
      <details className="details">
        <summary>Raw record</summary>
        <JsonView value={record} />
      </details>
    </div>
  )
}
