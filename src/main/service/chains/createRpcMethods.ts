import type { Bundler } from '../bundler/createBundler'
import { createBundlerMethods } from '../bundler/methods'
import { ethChainId } from '../bundler/methods/eth_chainId'
import {
  pimlicoGetUserOperationGasPrice,
  zdGetUserOperationGasPrice,
} from '../bundler/methods/getUserOperationGasPrice'
import { createMethodRegistry, type RpcMethod, type RpcMethodRegistry } from '../jsonrpc/defineMethod'
import type { Paymaster } from '../paymaster/createPaymaster'

/**
 * The JSON-RPC methods of one chain's bundler URL and paymaster URLs (`getBundler` throws where no chain runs: the
 * methods then answer its error).
 */
export function createRpcMethods(
  getBundler: () => Bundler,
  paymaster: Paymaster,
): { bundler: RpcMethodRegistry; paymaster: RpcMethodRegistry } {
  return {
    bundler: createMethodRegistry(createBundlerMethods(getBundler)),
    // Some clients ask the paymaster URL for gas prices (permissionless' paymaster-as-bundler setups). Registered
    // with or without a chain, as at the bundler URL (without one they answer its error), so that the methods, and
    // the OpenRPC document written from a service without a chain, are the same everywhere.
    paymaster: createMethodRegistry([
      ethChainId,
      ...paymaster.methods,
      pimlicoGetUserOperationGasPrice(getBundler),
      zdGetUserOperationGasPrice(getBundler),
    ] as RpcMethod[]),
  }
}
