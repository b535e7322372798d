import { useEffect, useMemo } from 'react'
import { toFunctionSelector } from 'viem'
import { useContractsStore } from '../stores/useContractsStore'
import { usePaymastersStore } from '../stores/usePaymastersStore'
import { formatSignature, parseAbiText } from './abi'

export type CallName = { contract: string; method: string; signature: string; whitelisted: boolean }

/** Names calls (`to` + selector) from the ABIs registered for every dApp: "tUSDC.mint(address to, uint256 amount)". */
export function useCallNames(): (to: string, selector: string | null | undefined) => CallName | undefined {
  const paymasters = usePaymastersStore((s) => s.list.data)
  const byApiKey = useContractsStore((s) => s.byApiKey)
  const load = useContractsStore((s) => s.load)
  useEffect(() => {
    for (const p of paymasters ?? [])
      if (!useContractsStore.getState().byApiKey[p.apiKey]) void load(p.apiKey)
  }, [paymasters, load])
  const table = useMemo(() => {
    const map = new Map<string, CallName>()
    for (const state of Object.values(byApiKey)) {
      for (const contract of state.data ?? []) {
        const parsed = parseAbiText(contract.abi)
        if (!parsed.ok) continue
        for (const fn of parsed.callable) {
          try {
            map.set(`${contract.address.toLowerCase()}:${toFunctionSelector(fn)}`, {
              contract: contract.name,
              method: fn.name,
              signature: formatSignature(fn),
              whitelisted: contract.whitelistedMethods.includes(fn.name),
            })
          } catch {}
        }
      }
    }
    return map
  }, [byApiKey])
  return (to, selector) => (selector ? table.get(`${to.toLowerCase()}:${selector.toLowerCase()}`) : undefined)
}
