import { useMemo } from 'react'
import type { OpstationToken } from '../../../../shared/chainAddresses'
import type { EntryPointVersion } from '../../../../shared/entryPointVersions'
import { useServiceStore } from '../../stores/useServiceStore'
import { findTokenPaymaster } from './chainTokens'

/** The chain's test tokens, and its token paymaster for each EntryPoint version. */
export function useChainTokens(): {
  tokens: OpstationToken[]
  tokenPaymasterFor: (version: EntryPointVersion) => string | null
} {
  const addresses = useServiceStore((s) => s.status?.chain.addresses)
  return useMemo(
    () => ({
      tokens: addresses?.tokens ?? [],
      tokenPaymasterFor: (version) => findTokenPaymaster(addresses, version),
    }),
    [addresses],
  )
}
