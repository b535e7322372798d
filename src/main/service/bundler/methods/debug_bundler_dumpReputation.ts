import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema, toHexQuantity } from '../../schemas/hexSchemas'
import type { ReputationStatus } from '../mempool/reputation'
import type { GetBundler } from './bundlerAccess'

/** The reference bundler's numbering of a reputation status (its `ReputationStatus` enum). */
const STATUS_NUMBER: Record<ReputationStatus, number> = { ok: 0, throttled: 1, banned: 2 }

const quantity = z.string().regex(/^0x[0-9a-f]+$/)

/**
 * `debug_bundler_dumpReputation([entryPoint])`: `[{address, opsSeen, opsIncluded, status}]`, every number a 0x-hex
 * quantity as the reference bundler (eth-infinitism/bundler) answers and the ERC-4337 test suite reads it: `status`
 * 0x0 ok, 0x1 throttled, 0x2 banned. (ERC-7769's text shows `status` as a word; the suite reads a number.)
 */
export const debugBundlerDumpReputation = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_dumpReputation',
    summary: 'The reputation of the entities an EntryPoint has seen (v0.6 without it)',
    admin: true,
    params: z.tuple([AddressSchema.optional().meta({ title: 'entryPoint' })], z.unknown()),
    result: z.array(
      z.object({
        address: z.string(),
        opsSeen: quantity,
        opsIncluded: quantity,
        status: quantity.meta({ description: '0x0 ok, 0x1 throttled, 0x2 banned' }),
      }),
    ),
    handler: ([entryPoint]) =>
      getBundler()
        .dumpReputation(entryPoint)
        .map((entry) => ({
          address: entry.address,
          opsSeen: toHexQuantity(entry.opsSeen),
          opsIncluded: toHexQuantity(entry.opsIncluded),
          status: toHexQuantity(STATUS_NUMBER[entry.status]),
        })),
  })
