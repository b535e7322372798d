import { filterByChain } from '../features/chains/chainList'
import { usePaymastersStore } from '../stores/usePaymastersStore'

/**
 * Chooses the dApp a screen works on (shared selection across Contracts, Webhooks and Sandbox); with `chainId`, among
 * that chain's dApps only (a screen that acts on one chain of several).
 */
export function DappPicker({
  testId = 'dapp-picker',
  chainId = null,
}: {
  testId?: string
  chainId?: number | null
}) {
  const all = usePaymastersStore((s) => s.list.data)
  const selected = usePaymastersStore((s) => s.selectedApiKey)
  const select = usePaymastersStore((s) => s.select)
  const list = all && filterByChain(all, chainId)
  if (!list || list.length === 0) return null
  return (
    <label className="inline-field">
      <span>dApp</span>
      <select data-testid={testId} value={selected ?? ''} onChange={(e) => select(e.target.value || null)}>
        {list.map((p) => (
          <option key={p.apiKey} value={p.apiKey}>
            {p.name} (chain {p.chainId}){p.active === false ? ' · inactive' : ''}
          </option>
        ))}
      </select>
    </label>
  )
}
