import type { OpstationAddresses } from '../../../../shared/chainAddresses'
import type { EntryPointVersion } from '../../../../shared/entryPointVersions'

/** Each EntryPoint version's token paymaster among the chain's contracts. */
const TOKEN_PAYMASTER: Record<EntryPointVersion, keyof OpstationAddresses> = {
  '0.6': 'tokenPaymaster',
  '0.7': 'tokenPaymasterV07',
  '0.8': 'tokenPaymasterV08',
  '0.9': 'tokenPaymasterV09',
}

/** The token paymaster an account of this EntryPoint version pays its ERC20 fee through; null without a chain. */
export function findTokenPaymaster(
  addresses: OpstationAddresses | null | undefined,
  version: EntryPointVersion,
): string | null {
  const address = addresses?.[TOKEN_PAYMASTER[version]]
  return typeof address === 'string' ? address : null
}
