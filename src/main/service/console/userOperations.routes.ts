import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  UserOperationPageSchema,
  type UserOperationRecord,
  type UserOperationView,
  UserOperationViewSchema,
} from '../../../shared/api/userOperations'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { allEntryPoints } from '../entryPoint'
import { NotFoundError } from '../errors'
import { parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import {
  CHAIN_NOT_RUN,
  ChainQuery,
  type ConsoleChain,
  type ConsoleChains,
  requireConsoleChain,
} from './consoleChains'
import { nameRecordAccounts } from './nameRecordAccounts'

export type UserOperationRoutesOptions = {
  store: Store
  /**
   * Each chain's bundler log (its live records) and node (the records' account types are read from it:
   * nameRecordAccounts.ts); without a chain, the stored records are served.
   */
  chains: ConsoleChains
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
  chainId: ChainQuery.shape.chainId.meta({ description: "Only this chain's (every chain's without it)" }),
})

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: activity',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
} as const satisfies Partial<RouteDoc>

/**
 * The activity feed of the console: `GET /console/api/user-operations?limit&before&chainId` (newest first, `before` is
 * the `seq` cursor of the last item seen; every chain's records, or one chain's) and
 * `GET /console/api/user-operations/:hash`.
 */
export async function registerUserOperationRoutes(
  app: FastifyInstance,
  options: UserOperationRoutesOptions,
): Promise<void> {
  const { store, chains: registry } = options
  const fromStore = (limit: number, before?: number) =>
    [...store.data.userOperations]
      .reverse()
      .filter((r) => before === undefined || r.seq < before)
      .slice(0, limit)

  app.get(
    '/console/api/user-operations',
    withDoc({
      ...DOC,
      summary:
        "Every UserOperation the bundlers saw (every chain's, or `chainId`'s), newest first, a page at a time",
      query: ListQuery,
      data: UserOperationPageSchema,
      errors: { 400: CHAIN_NOT_RUN },
    }),
    async (request, reply) => {
      authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
      const { limit, before, chainId } = parseInput(ListQuery, request.query ?? {})
      const chains = chainId === undefined ? registry.list() : [requireConsoleChain(registry, chainId)]
      const items =
        chains.length === 0 ? fromStore(limit, before) : await listEveryChain(chains, { limit, before })
      await Promise.all(
        chains.map((c) =>
          nameRecordAccounts(
            items.filter((r) => chains.length === 1 || r.chainId === c.chainId),
            c.chain,
            c.bundler.userOperations,
          ),
        ),
      )
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
      // An older operation's record comes from its chain's bundler history (store/userOperationHistory.ts).
      const found = await findOnEveryChain(registry.list(), hash)
      const record = found?.record ?? store.data.userOperations.find((r) => r.userOpHash === hash)
      if (!record) throw new NotFoundError(`UserOperation ${request.params.hash} not found`)
      if (found) await nameRecordAccounts([record], found.chain.chain, found.chain.bundler.userOperations)
      return sendOk(reply, 'UserOperation fetched', toView(record))
    },
  )
}

/**
 * The newest records of every chain's log (before `before`), newest first: the logs number their records from one
 * sequence, so a page of each, merged by `seq`, holds the page of them all.
 */
async function listEveryChain(
  chains: readonly ConsoleChain[],
  page: { limit: number; before?: number },
): Promise<UserOperationRecord[]> {
  if (chains.length === 1) return (chains[0] as ConsoleChain).bundler.userOperations.list(page)
  const pages = await Promise.all(chains.map((c) => c.bundler.userOperations.list(page)))
  return pages
    .flat()
    .sort((a, b) => b.seq - a.seq)
    .slice(0, page.limit)
}

/** The record of a userOpHash in the log (or history) of the chain that holds it. */
async function findOnEveryChain(
  chains: readonly ConsoleChain[],
  hash: string,
): Promise<{ record: UserOperationRecord; chain: ConsoleChain } | undefined> {
  for (const chain of chains) {
    const record = await chain.bundler.userOperations.find(hash)
    if (record) return { record, chain }
  }
  return undefined
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
