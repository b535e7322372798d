import { type Address, parseAbi } from 'viem'
import type { EntryPointVersion } from '../../../../shared/entryPointVersions'
import type { Chain } from '../types'
import { getVersionContracts } from '../versionContracts'

/**
 * The gas-tank functions both verifying paymasters share (Biconomy's VerifyingSingletonPaymaster for v0.6,
 * Opstation's for v0.7/v0.8): same signatures, same meaning.
 */
export const gasTankAbi = parseAbi([
  'function depositFor(address paymasterId) payable',
  'function getBalance(address paymasterId) view returns (uint256)',
  'function withdrawTo(address withdrawAddress, uint256 amount)',
  'event GasTankDeposited(address indexed paymasterId, uint256 amount)',
])

/**
 * The verifying paymaster holding the gas tanks of `version`: a dApp has one tank per EntryPoint version, each on
 * that version's verifying paymaster, all under the dApp's one `paymasterId`.
 */
export function getGasTankPaymaster(chain: Pick<Chain, 'addresses'>, version: EntryPointVersion): Address {
  return getVersionContracts(chain, version).verifying.address
}
