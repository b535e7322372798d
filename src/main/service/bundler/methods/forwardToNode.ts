import { z } from 'zod'
import { NodeRpcError } from '../../chain/node/nodeRpcError'
import { RpcError } from '../../errors'
import { defineMethod, type RpcMethod } from '../../jsonrpc/defineMethod'
import { nodeParamsSchema } from '../../schemas/nodeCallSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * Standard chain methods a client built around one URL sends to its bundler, passed to the node as they are:
 * reading the chain and sending a transaction the client signed itself. Never `eth_sendTransaction` or
 * `eth_accounts` (the node's own keys), `anvil_*`, `hardhat_*`, `evm_*` or `debug_*`: a dApp key must not control
 * the chain.
 */
export const NODE_METHODS = [
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getCode',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_sendRawTransaction',
  'eth_syncing',
  'net_version',
  'web3_clientVersion',
] as const

/**
 * The node's answer, or its JSON-RPC error with its code, message and data, with HTTP 200 as a node answers (a
 * reverting eth_call is a normal answer for these clients, not a rejected request).
 */
export function createNodeMethods(getBundler: GetBundler): RpcMethod[] {
  return NODE_METHODS.map((name) =>
    defineMethod({
      name,
      summary: `The chain's \`${name}\`, passed to the node as it is`,
      params: nodeParamsSchema(name).optional().default([]),
      result: z.unknown().meta({ description: `The node's answer to ${name}` }),
      handler: async (params) => {
        try {
          return await getBundler().forwardToNode(name, params)
        } catch (err) {
          if (err instanceof NodeRpcError)
            throw new RpcError(err.message, err.code, { data: err.data, httpStatus: 200 })
          throw err
        }
      },
    }),
  ) as RpcMethod[]
}
