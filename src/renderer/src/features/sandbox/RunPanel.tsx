import { JsonView } from '../../components/JsonView'
import { Kv } from '../../components/Kv'
import { Section } from '../../components/Layout'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { ExplanationResult } from '../explain/ExplanationResult'
import { isBeforeSend, nextStep } from './run'
import { StepView } from './StepView'
import { useSandboxStore } from './useSandboxStore'

/**
 * The run: its steps (next, run all, simulate, reset), then what it produced (the simulation, the hash, the verdict,
 * the operation).
 */
export function RunPanel() {
  const run = useSandboxStore((s) => s.run)
  const busy = useSandboxStore((s) => s.busy)
  const runNext = useSandboxStore((s) => s.runNext)
  const runAll = useSandboxStore((s) => s.runAll)
  const reset = useSandboxStore((s) => s.reset)
  const bundleNow = useSandboxStore((s) => s.bundleNow)
  const simulateRun = useSandboxStore((s) => s.simulateRun)
  const simulation = useSandboxStore((s) => s.simulation)
  const simulationNote = useSandboxStore((s) => s.simulationNote)
  if (!run) return null
  const next = nextStep(run)
  const done = !next
  return (
    <Section
      title={`Run${run.config.chainId === undefined ? '' : ` on chain ${run.config.chainId}`}: ${run.config.mode === 'SELF' ? 'self-paid' : run.config.mode === 'ERC20' ? 'ERC20 (user pays in tokens)' : 'sponsored'}`}
      testId="sandbox-run"
      actions={
        <span className="inline-actions">
          <button
            type="button"
            className="btn btn-small"
            disabled={busy || done}
            data-testid="run-next"
            onClick={() => void runNext()}
          >
            {next?.status === 'failed' ? 'Retry step' : 'Next step'}
          </button>
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={busy || done}
            data-testid="run-all"
            onClick={() => void runAll()}
          >
            Run all
          </button>
          <button
            type="button"
            className="btn btn-small"
            disabled={busy || simulation.loading || !(isBeforeSend(run) || run.op)}
            data-testid="run-simulate"
            title="Simulate the operation as built so far (opstation_simulateUserOperation), without sending it"
            onClick={() => void simulateRun()}
          >
            Simulate
          </button>
          <button type="button" className="btn btn-small btn-ghost" disabled={busy} onClick={reset}>
            Reset
          </button>
        </span>
      }
    >
      <ol className="steps">
        {run.steps.map((s, i) => (
          <StepView
            key={s.id}
            step={s}
            index={i}
            current={s === next}
            accountType={run.config.account.type}
          />
        ))}
      </ol>
      {simulation.loading || simulation.error || simulation.explanation ? (
        <div className="stack" style={{ marginTop: 10 }}>
          <h3>Simulation (not sent)</h3>
          {simulationNote ? (
            <div className="banner banner-muted small" data-testid="sandbox-simulation-note">
              {simulationNote}
            </div>
          ) : null}
          <ExplanationResult state={simulation} testId="sandbox-simulation" loadingLabel="Simulating…" />
        </div>
      ) : null}
      {run.steps.find((s) => s.id === 'receipt')?.status === 'running' ? (
        <div className="banner banner-muted" data-testid="sandbox-waiting">
          Waiting for the bundle. With manual or interval bundling the operation waits in the mempool:{' '}
          <button
            type="button"
            className="btn btn-small"
            data-testid="sandbox-bundle-now"
            onClick={() => void bundleNow()}
          >
            Bundle now
          </button>
        </div>
      ) : null}
      {run.declined ? (
        <div className="banner banner-warn" data-testid="sandbox-declined">
          <strong>The paymaster declined:</strong> {run.declined.reason ?? 'no reason recorded'}.{' '}
          {run.declined.decisionId ? (
            <Link to={`activity/dec:${run.declined.decisionId}`}>See the decision</Link>
          ) : null}
        </div>
      ) : null}
      {run.userOpHash ? (
        <div className="kv-grid" style={{ marginTop: 8 }}>
          <Kv label="userOpHash">
            <span className="hex-wrap">
              <Hex value={run.userOpHash} short={false} copy testId="sandbox-userop-hash" />
              {run.steps.find((s) => s.id === 'send')?.status === 'done' ? (
                <Link to={`activity/op:${run.userOpHash}`} testId="sandbox-open-activity">
                  Open in Activity
                </Link>
              ) : null}
            </span>
          </Kv>
        </div>
      ) : null}
      {done ? (
        <div className="banner banner-ok" data-testid="sandbox-done">
          Mined.{' '}
          {run.config.mode === 'SPONSORED'
            ? 'The dApp’s gas tank paid for it.'
            : run.config.mode === 'ERC20'
              ? 'The account paid in tokens.'
              : 'The account paid in ETH.'}
        </div>
      ) : null}
      {run.op ? (
        <details className="details">
          <summary>Current UserOperation</summary>
          <JsonView value={run.op} testId="sandbox-op" />
        </details>
      ) : null}
    </Section>
  )
}
