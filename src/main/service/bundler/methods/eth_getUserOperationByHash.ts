import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { HashSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * `eth_getUserOperationByHash(userOpHash)`: the operation with `transactionHash`, `blockHash`, `blockNumber` and
 * `entryPoint`, both as `userOperation` (ERC-4337 RPC) and flattened (Biconomy). While it is pending the three
 * are null (as eth-infinitism's bundler answers); null for a hash that is unknown, rejected, dropped or replaced.
 */
export const ethGetUserOperationByHash = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_getUserOperationByHash',
    params: z.tuple([HashSchema]),
    handler: ([userOpHash]) => getBundler().getUserOperationByHash(userOpHash),
  })
