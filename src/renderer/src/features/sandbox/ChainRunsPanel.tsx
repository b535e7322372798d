import { Badge } from '../../components/Feedback'
import { Section } from '../../components/Layout'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { useSandboxStore } from './useSandboxStore'

/** How "Send on every chain" went on each chain: mined (with its hash) or why not. */
export function ChainRunsPanel() {
  const chainRuns = useSandboxStore((s) => s.chainRuns)
  const busy = useSandboxStore((s) => s.busy)
  if (!chainRuns) return null
  return (
    <Section title="Sent on every chain" testId="sandbox-chain-runs">
      <table className="table compact">
        <thead>
          <tr>
            <th className="nowrap">Chain</th>
            <th>Outcome</th>
            <th>userOpHash</th>
          </tr>
        </thead>
        <tbody>
          {chainRuns.map((r) => (
            <tr key={r.chainId} data-testid={`sandbox-chain-run-${r.chainId}`}>
              <td className="nowrap mono">{r.chainId}</td>
              <td>
                <Badge tone={r.ok ? 'ok' : 'bad'} testId="sandbox-chain-run-outcome">
                  {r.outcome}
                </Badge>
              </td>
              <td>
                {r.userOpHash ? (
                  <span className="hex-wrap">
                    <Hex value={r.userOpHash} copy />
                    {r.ok ? <Link to={`activity/op:${r.userOpHash}`}>Open in Activity</Link> : null}
                  </span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {busy ? <div className="muted small">Sending on the next chain…</div> : null}
    </Section>
  )
}
