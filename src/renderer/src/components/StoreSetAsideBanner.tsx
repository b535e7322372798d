import { useState } from 'react'
import { useServiceStore } from '../stores/useServiceStore'

/**
 * Says so when this start found the store file unreadable and began empty (`--reset-store`): where the old file was
 * kept and why it could not be read. Everything created before (dApps, contracts, webhooks, activity, the auth
 * token) is in that file, not in the console.
 */
export function StoreSetAsideBanner() {
  const setAside = useServiceStore((s) => s.status?.storeSetAside)
  const [dismissed, setDismissed] = useState(false)
  if (!setAside || dismissed) return null
  return (
    <div className="banner banner-warn" role="alert" data-testid="store-set-aside">
      <span>
        <strong>Started with an empty store.</strong> The store file could not be read ({setAside.reason}); it
        was kept aside as <code className="mono">{setAside.corruptCopy}</code>. dApps, contracts, webhooks and
        activity from before are in that file.
      </span>
      <button type="button" className="btn btn-small" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </div>
  )
}
