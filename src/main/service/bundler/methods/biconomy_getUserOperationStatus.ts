import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { HashSchema } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * `biconomy_getUserOperationStatus(userOpHash)`: BUNDLER_MEMPOOL → SUBMITTED → CONFIRMED | FAILED, or
 * DROPPED_FROM_BUNDLER_MEMPOOL; an unknown hash is HTTP 200 with error -32004 (the SDK keeps polling).
 */
export const biconomyGetUserOperationStatus = (getBundler: GetBundler) =>
  defineMethod({
    name: 'biconomy_getUserOperationStatus',
    params: z.tuple([HashSchema]),
    handler: ([userOpHash]) => getBundler().getUserOperationStatus(userOpHash),
  })
