import { useState } from 'react'
import { errorMessage } from '../../api/http'
import { usePaymastersStore } from '../../stores/usePaymastersStore'
import { Badge, ErrorBanner } from '../Feedback'
import { Section } from '../Layout'

/** Whether the dApp sponsors at all: an inactive dApp keeps its setup but every decision fails at the dApp step. */
export function DappStatusPanel({ apiKey, active }: { apiKey: string; active: boolean }) {
  const setActive = usePaymastersStore((s) => s.setActive)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function toggle() {
    setBusy(true)
    setError(null)
    try {
      await setActive(apiKey, !active)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Section title="Status" testId="dapp-status">
      <div className="hex-wrap">
        <Badge tone={active ? 'ok' : 'warn'} testId="dapp-status-badge">
          {active ? 'active' : 'inactive'}
        </Badge>
        <span className="muted small">
          {active
            ? 'Sponsored requests are decided by the policies, contracts and webhook below.'
            : 'Nothing is sponsored: SPONSORED requests get paymasterAndData "0x" (the user pays) and ERC20 paymaster data is refused.'}
        </span>
        <button
          type="button"
          className={`btn btn-small${active ? ' btn-danger-ghost' : ''}`}
          disabled={busy}
          data-testid="dapp-active-toggle"
          onClick={() => void toggle()}
        >
          {busy ? 'Saving…' : active ? 'Deactivate' : 'Activate'}
        </button>
      </div>
      <ErrorBanner message={error} testId="dapp-status-error" />
    </Section>
  )
}
