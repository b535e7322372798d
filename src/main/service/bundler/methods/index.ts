import type { RpcMethod } from '../../jsonrpc/defineMethod'
import { biconomyGetGasFeeValues } from './biconomy_getGasFeeValues'
import { biconomyGetUserOperationStatus } from './biconomy_getUserOperationStatus'
import type { GetBundler } from './bundlerAccess'
import { debugBundlerClearMempool } from './debug_bundler_clearMempool'
import { debugBundlerClearReputation } from './debug_bundler_clearReputation'
import { debugBundlerClearState } from './debug_bundler_clearState'
import { debugBundlerDumpMempool } from './debug_bundler_dumpMempool'
import { debugBundlerDumpReputation } from './debug_bundler_dumpReputation'
import { debugBundlerGetStakeStatus } from './debug_bundler_getStakeStatus'
import { debugBundlerSendBundleNow } from './debug_bundler_sendBundleNow'
import { debugBundlerSetBundlingMode } from './debug_bundler_setBundlingMode'
import { debugBundlerSetConfiguration } from './debug_bundler_setConfiguration'
import { debugBundlerSetReputation } from './debug_bundler_setReputation'
import { ethChainId } from './eth_chainId'
import { ethEstimateUserOperationGas } from './eth_estimateUserOperationGas'
import { ethGetUserOperationByHash } from './eth_getUserOperationByHash'
import { ethGetUserOperationReceipt } from './eth_getUserOperationReceipt'
import { ethSendUserOperation } from './eth_sendUserOperation'
import { ethSupportedEntryPoints } from './eth_supportedEntryPoints'
import { createNodeMethods } from './forwardToNode'
import {
  pimlicoGetUserOperationGasPrice,
  thirdwebGetUserOperationGasPrice,
  zdGetUserOperationGasPrice,
} from './getUserOperationGasPrice'
import { opstationSimulateUserOperation } from './opstation_simulateUserOperation'
import { opstationTraceUserOperation } from './opstation_traceUserOperation'

export type { GetBundler } from './bundlerAccess'

/** Every method served at the bundler URL `/api/v2/:chainId/:bundlerKey`. */
export function createBundlerMethods(getBundler: GetBundler): RpcMethod[] {
  return [
    ethChainId,
    ethSupportedEntryPoints(getBundler),
    ethSendUserOperation(getBundler),
    ethEstimateUserOperationGas(getBundler),
    ethGetUserOperationReceipt(getBundler),
    ethGetUserOperationByHash(getBundler),
    biconomyGetGasFeeValues(getBundler),
    biconomyGetUserOperationStatus(getBundler),
    opstationTraceUserOperation(getBundler),
    opstationSimulateUserOperation(getBundler),
    pimlicoGetUserOperationGasPrice(getBundler),
    zdGetUserOperationGasPrice(getBundler),
    thirdwebGetUserOperationGasPrice(getBundler),
    debugBundlerClearState(getBundler),
    debugBundlerClearMempool(getBundler),
    debugBundlerSetConfiguration(getBundler),
    debugBundlerGetStakeStatus(getBundler),
    debugBundlerDumpMempool(getBundler),
    debugBundlerSendBundleNow(getBundler),
    debugBundlerSetBundlingMode(getBundler),
    debugBundlerSetReputation(getBundler),
    debugBundlerDumpReputation(getBundler),
    debugBundlerClearReputation(getBundler),
    ...createNodeMethods(getBundler),
  ] as RpcMethod[]
}
