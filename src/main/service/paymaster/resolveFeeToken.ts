import { isAddress } from 'viem'
import type { Chain } from '../chain'
import { InvalidInputError } from '../errors'
import type { Store } from '../store/openStore'
import { listSupportedTokens, type SupportedToken } from './tokenPrices'

/** The supported token for `tokenInfo.feeTokenAddress`, or a clear error for a missing or unsupported token. */
export function resolveFeeToken(
  chain: Chain,
  store: Store,
  feeTokenAddress: string | undefined,
): SupportedToken {
  const supported = listSupportedTokens(chain.addresses.tokens, store)
  const list = supported.map((t) => `${t.symbol} ${t.address}`).join(', ') || 'none'
  if (feeTokenAddress === undefined || feeTokenAddress === '') {
    throw new InvalidInputError(
      `tokenInfo.feeTokenAddress is required in ERC20 mode (supported tokens: ${list})`,
    )
  }
  if (!isAddress(feeTokenAddress, { strict: false })) {
    throw new InvalidInputError(
      `tokenInfo.feeTokenAddress "${feeTokenAddress}" is not an address (supported tokens: ${list})`,
    )
  }
  const token = supported.find((t) => t.address.toLowerCase() === feeTokenAddress.toLowerCase())
  if (!token) {
    throw new InvalidInputError(
      `Token ${feeTokenAddress} is not supported by this paymaster (supported tokens: ${list})`,
    )
  }
  return token
}
