import type { RpcMethod } from '../../jsonrpc/defineMethod'
import type { PaymasterDeps } from '../paymasterDeps'
import { pmGetFeeQuoteOrData } from './pm_getFeeQuoteOrData'
import { pmGetPaymasterData } from './pm_getPaymasterData'
import { pmGetPaymasterStubData } from './pm_getPaymasterStubData'
import { pmSponsorUserOperation } from './pm_sponsorUserOperation'
import { pmSupportedEntryPoints } from './pm_supportedEntryPoints'

/** The paymaster's own methods at the paymaster URL `/api/v1/:chainId/:apiKey` (the service adds eth_chainId and the gas prices). */
export function createPaymasterMethods(deps: PaymasterDeps): RpcMethod[] {
  return [
    pmSponsorUserOperation(deps),
    pmGetFeeQuoteOrData(deps),
    pmGetPaymasterStubData(deps),
    pmGetPaymasterData(deps),
    pmSupportedEntryPoints(deps),
  ] as RpcMethod[]
}
