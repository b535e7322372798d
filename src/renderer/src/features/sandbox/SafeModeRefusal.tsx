import { useEffect } from 'react'
import {
  SANDBOX_ACCOUNT_LABELS,
  SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS,
  type SandboxAccountType,
} from '../../../../shared/sandbox'
import { Link } from '../../components/Link'
import { useSettingsStore } from '../../stores/useSettingsStore'

/**
 * Says, for an account type a bundler in safe mode refuses, which ERC-7562 rule and why, whether the service is in
 * safe mode now, and how to run it. Nothing for the other types.
 */
export function SafeModeRefusal({
  type,
  testId = 'sandbox-safe-mode-refusal',
}: {
  type: SandboxAccountType
  testId?: string
}) {
  const refusal = SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS[type]
  const unsafe = useSettingsStore((s) => s.settings.data?.effective.unsafe)
  const load = useSettingsStore((s) => s.load)
  useEffect(() => {
    if (refusal) void load()
  }, [refusal, load])
  if (!refusal) return null
  const name = SANDBOX_ACCOUNT_LABELS[type]
  return (
    <div className={`banner ${unsafe ? 'banner-muted' : 'banner-warn'}`} data-testid={testId}>
      <span>
        <strong>
          {unsafe ? 'Unsafe mode is on: ' : ''}A bundler in safe mode refuses {name} operations [
          {refusal.rule}]
        </strong>
        : {refusal.why}.{' '}
        {unsafe ? (
          'This service skips those rules now, so its operations go through (public bundlers would refuse them).'
        ) : (
          <>
            The service is in safe mode: switch <Link to="settings">Settings → Validation</Link> to unsafe (or
            start with --unsafe) to send them.
          </>
        )}
      </span>
    </div>
  )
}
