import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { HashSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * `eth_getUserOperationByHash(userOpHash)`: the mined operation with `transactionHash`, `blockHash`, `blockNumber`
 * and `entryPoint`, both as `userOperation` (ERC-4337 RPC) and flattened (Biconomy); null until mined.
 */
export const ethGetUserOperationByHash = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_getUserOperationByHash',
    params: z.tuple([HashSchema]),
    handler: ([userOpHash]) => getBundler().getUserOperationByHash(userOpHash),
  })
