import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  UserOperationPageSchema,
  type UserOperationRecord,
  type UserOperationView,
  UserOperationViewSchema,
} from '../../../shared/api/userOperations'
import type { Chain } from '../chain/types'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { allEntryPoints } from '../entryPoint'
import { NotFoundError } from '../errors'
import { parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import type { UserOperationLog } from '../store/userOperations.repo'
import { nameRecordAccounts } from './nameRecordAccounts'

export type UserOperationRoutesOptions = {
  store: Store
  /** The bundler's live log (undefined without a chain: the stored records are served). */
  getUserOperations: () => UserOperationLog | undefined
  /** The chain the records' account types are read from (nameRecordAccounts.ts). */
  getChain: () => Chain | undefined
}

const ListQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(500, { error: 'limit must be at most 500' })
    .default(50),
  before: z.coerce
    .number({ error: 'before must be a number (the seq of a record)' })
    .int()
    .nonnegative()
    .optional()
    .meta({ description: 'The `seq` of the last item seen (`nextBefore` of the previous page)' }),
})

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: activity',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
} as const satisfies Partial<RouteDoc>

/**
 * The activity feed of the console: `GET /console/api/user-operations?limit&before` (newest first, `before` is
 * the `seq` cursor of the last item seen) and `GET /console/api/user-operations/:hash`.
 */
export async function registerUserOperationRoutes(
  app: FastifyInstance,
  options: UserOperationRoutesOptions,
): Promise<void> {
  const { store } = options
  const fromStore = (limit: number, before?: number) =>
    [...store.data.userOperations]
      .reverse()
      .filter((r) => before === undefined || r.seq < before)
      .slice(0, limit)

  app.get(
    '/console/api/user-operations',
    withDoc({
      ...DOC,
      summary: 'Every UserOperation the bundler saw, newest first, a page at a time',
      query: ListQuery,
      data: UserOperationPageSchema,
    }),
    async (request, reply) => {
      authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
      const { limit, before } = parseInput(ListQuery, request.query ?? {})
      const log = options.getUserOperations()
      const items = log ? await log.list({ limit, before }) : fromStore(limit, before)
      await nameRecordAccounts(items, options.getChain(), log)
      const last = items.at(-1)
      return sendOk(reply, 'UserOperations fetched', {
        items: items.map(toView),
        nextBefore: items.length === limit && last ? last.seq : null,
      })
    },
  )

  app.get<{ Params: { hash: string } }>(
    '/console/api/user-operations/:hash',
    withDoc({
      ...DOC,
      summary: 'One UserOperation with its timeline, gas and failure',
      params: z.object({ hash: z.string().meta({ description: 'The userOpHash' }) }),
      data: UserOperationViewSchema,
      errors: { 404: 'Unknown userOpHash' },
    }),
    async (request, reply) => {
      authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
      const hash = request.params.hash.toLowerCase()
      // An older operation's record comes from the bundler's history (store/userOperationHistory.ts).
      const log = options.getUserOperations()
      const record = (await log?.find(hash)) ?? store.data.userOperations.find((r) => r.userOpHash === hash)
      if (!record) throw new NotFoundError(`UserOperation ${request.params.hash} not found`)
      await nameRecordAccounts([record], options.getChain(), log)
      return sendOk(reply, 'UserOperation fetched', toView(record))
    },
  )
}

/**
 * The record plus its EntryPoint's version and the estimated-versus-actual figures: `gasLimitTotal` =
 * preVerificationGas + verificationGasLimit + callGasLimit (+ the paymaster's two limits on v0.7/v0.8: what the
 * estimate granted), `gasUsedPercent` = actualGasUsed of it.
 */
function toView(record: UserOperationRecord): UserOperationView {
  const entryPoint = record.entryPoint.toLowerCase()
  const limit =
    BigInt(record.gas.preVerificationGas) +
    BigInt(record.gas.verificationGasLimit) +
    BigInt(record.gas.callGasLimit) +
    BigInt(record.gas.paymasterVerificationGasLimit ?? '0') +
    BigInt(record.gas.paymasterPostOpGasLimit ?? '0')
  const used = record.actualGasUsed === null ? null : BigInt(record.actualGasUsed)
  return {
    ...record,
    entryPointVersion: allEntryPoints.find((m) => m.address.toLowerCase() === entryPoint)?.version ?? null,
    gasLimitTotal: limit.toString(),
    gasUsedPercent: used === null || limit === 0n ? null : Number((used * 10_000n) / limit) / 100,
  }
}
