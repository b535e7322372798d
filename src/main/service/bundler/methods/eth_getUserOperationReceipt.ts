import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { HashSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * `eth_getUserOperationReceipt(userOpHash)`: null (HTTP 200) while pending or unknown, the receipt as soon as it is
 * mined. Operations sent by the Biconomy SDK get spec section 2.4's shape; others the ERC-4337 RPC shape.
 */
export const ethGetUserOperationReceipt = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_getUserOperationReceipt',
    params: z.tuple([HashSchema]),
    handler: ([userOpHash]) => getBundler().getUserOperationReceipt(userOpHash),
  })
