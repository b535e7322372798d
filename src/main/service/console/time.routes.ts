import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  type NamedSnapshot,
  TimeUndoViewSchema,
  type TimeView,
  TimeViewSchema,
  type Undone,
} from '../../../shared/api/time'
import type { Chain } from '../chain/types'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { ChainError, NotFoundError } from '../errors'
import { jsonObject, parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import { CHAIN_NOT_RUN, ChainQuery, type ConsoleChains, readConsoleChain } from './consoleChains'

export type TimeRoutesOptions = {
  store: Store
  /** The chains run: each route acts on the one its `?chainId=` names (the first without it). */
  chains: ConsoleChains
}

const DAY_SECONDS = 86_400

const AdvanceBody = jsonObject({
  seconds: z
    .number({ error: 'seconds must be a number' })
    .int({ error: 'seconds must be a whole number' })
    .min(1, { error: 'seconds must be at least 1' })
    .max(3650 * DAY_SECONDS, { error: 'seconds must be at most ten years' }),
})
const MineBody = jsonObject({
  blocks: z
    .number({ error: 'blocks must be a number' })
    .int({ error: 'blocks must be a whole number' })
    .min(1, { error: 'blocks must be at least 1' })
    .max(10_000, { error: 'blocks must be at most 10000' }),
})
const SnapshotBody = jsonObject({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, { error: 'name must not be empty' })
    .max(60, { error: 'name must be at most 60 characters' }),
})
const SnapshotParams = z.object({ id: z.string() })
/** A revert or a reset takes no fields: a body that carries some was not meant for it, and moves nothing. */
const NoFields = z.strictObject({}, { error: 'This action takes no fields: send no body or {}' }).optional()

const DOC = {
  tag: 'Console: time',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
  data: TimeViewSchema,
  query: ChainQuery,
  errors: { 400: CHAIN_NOT_RUN },
} as const satisfies Partial<RouteDoc>

/**
 * What the console counts as undone: the records present before a revert and gone after it. The operation records the
 * log has not written to the document yet (it writes them in batches) are written first, so that they count.
 */
async function countRecords(store: Store, chains: ConsoleChains) {
  await Promise.all(chains.list().map((c) => c.bundler.userOperations.flush()))
  return {
    operations: new Set(store.data.userOperations.map((r) => r.userOpHash)),
    dapps: new Set(store.data.dapps.map((d) => d.id)),
    sponsorships: new Set(store.data.sponsorships.map((s) => s.id)),
  }
}

function countUndone(
  before: Awaited<ReturnType<typeof countRecords>>,
  after: Awaited<ReturnType<typeof countRecords>>,
): Undone {
  const gone = (a: Set<string>, b: Set<string>) => [...a].filter((key) => !b.has(key)).length
  return {
    operations: gone(before.operations, after.operations),
    dapps: gone(before.dapps, after.dapps),
    sponsorships: gone(before.sponsorships, after.sponsorships),
  }
}

/**
 * `/console/api/time*`: the console's Time and snapshots panel. Every action goes through the chain's own request
 * (the methods a test client sends to the chain URL), so the stack's snapshots and the chain clock move exactly as
 * they do for a test suite. The names are the console's: a name ↔ id list kept here, which drops what a revert or a
 * reset used up (the stack's `ids()`). Each route acts on the chain its `?chainId=` names (the first without it): in a
 * service of several chains, a chain's snapshots take that chain and what belongs to it.
 */
export async function registerTimeRoutes(app: FastifyInstance, options: TimeRoutesOptions): Promise<void> {
  const { store, chains } = options
  // Each chain keeps its own names: a snapshot id is its chain's.
  const namesOf = new Map<number, Map<string, Omit<NamedSnapshot, 'id'>>>()
  const requireChain = (request: { query: unknown }) => {
    const chain = readConsoleChain(chains, request.query)?.chain
    if (!chain) throw new ChainError('The chain is not running: time and snapshots are the chain’s')
    return chain
  }
  const namesFor = (chain: Chain) => {
    const names = namesOf.get(chain.chainId) ?? new Map<string, Omit<NamedSnapshot, 'id'>>()
    namesOf.set(chain.chainId, names)
    return names
  }
  const listSnapshots = (chain: Chain): NamedSnapshot[] => {
    const names = namesFor(chain)
    const kept = new Set(chain.stack.ids())
    for (const id of names.keys()) if (!kept.has(id)) names.delete(id)
    return [...names].map(([id, named]) => ({ id, ...named }))
  }
  const view = async (chain: Chain): Promise<TimeView> => {
    const chainTime = await chain.clock.sync()
    const wallTime = Math.floor(Date.now() / 1000)
    const blockNumber = Number(await chain.request('eth_blockNumber', []))
    return {
      chainTime,
      wallTime,
      offsetSeconds: chainTime - wallTime,
      blockNumber,
      snapshots: listSnapshots(chain),
    }
  }
  const guard = (request: Parameters<typeof authenticate>[1]) =>
    authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })

  app.get(
    '/console/api/time',
    withDoc({
      ...DOC,
      summary: "Chain time beside wall time, the block number and the console's named snapshots",
    }),
    async (request, reply) => {
      guard(request)
      return sendOk(reply, 'Time fetched', await view(requireChain(request)))
    },
  )

  app.post(
    '/console/api/time/advance',
    withDoc({
      ...DOC,
      summary: "Moves the chain's time ahead by `seconds` and mines a block at the new time",
      body: AdvanceBody,
    }),
    async (request, reply) => {
      guard(request)
      const { seconds } = parseInput(AdvanceBody, request.body)
      const chain = requireChain(request)
      await chain.request('evm_increaseTime', [seconds])
      await chain.request('evm_mine', [])
      return sendOk(reply, `Time advanced by ${seconds} s`, await view(chain))
    },
  )

  app.post(
    '/console/api/time/mine',
    withDoc({ ...DOC, summary: 'Mines `blocks` empty blocks', body: MineBody }),
    async (request, reply) => {
      guard(request)
      const { blocks } = parseInput(MineBody, request.body)
      const chain = requireChain(request)
      await chain.request('anvil_mine', [`0x${blocks.toString(16)}`])
      return sendOk(reply, `${blocks} block${blocks === 1 ? '' : 's'} mined`, await view(chain))
    },
  )

  app.post(
    '/console/api/time/snapshots',
    withDoc({ ...DOC, summary: 'Takes a snapshot of the whole stack under a name', body: SnapshotBody }),
    async (request, reply) => {
      guard(request)
      const { name } = parseInput(SnapshotBody, request.body)
      const chain = requireChain(request)
      const id = String(await chain.request('evm_snapshot', []))
      namesFor(chain).set(id, { name, chainTime: chain.clock.now(), takenAt: new Date().toISOString() })
      return sendOk(reply, `Snapshot '${name}' taken`, await view(chain))
    },
  )

  app.post<{ Params: { id: string } }>(
    '/console/api/time/snapshots/:id/revert',
    withDoc({
      ...DOC,
      summary:
        'Reverts the whole stack to a snapshot (it and every later one are used up); says what was undone',
      params: SnapshotParams,
      data: TimeUndoViewSchema,
      body: NoFields,
      bodyRequired: false,
      errors: { ...DOC.errors, 404: 'No snapshot with this id is kept' },
    }),
    async (request, reply) => {
      guard(request)
      parseInput(NoFields, request.body)
      const chain = requireChain(request)
      const { id } = request.params
      const named = listSnapshots(chain).find((s) => s.id === id)
      if (!named)
        throw new NotFoundError(`No snapshot ${id} is kept (a revert uses up its id and the later ones)`)
      const before = await countRecords(store, chains)
      const reverted = await chain.request('evm_revert', [id])
      if (reverted !== true) throw new NotFoundError(`The chain no longer keeps snapshot ${id}`)
      const undone = countUndone(before, await countRecords(store, chains))
      return sendOk(reply, `Reverted to '${named.name}'`, { ...(await view(chain)), undone })
    },
  )

  app.post(
    '/console/api/time/reset',
    withDoc({
      ...DOC,
      summary: 'Resets the chain and the whole stack to its first start; says what was undone',
      data: TimeUndoViewSchema,
      body: NoFields,
      bodyRequired: false,
    }),
    async (request, reply) => {
      guard(request)
      parseInput(NoFields, request.body)
      const chain = requireChain(request)
      const before = await countRecords(store, chains)
      await chain.request('anvil_reset', [])
      const undone = countUndone(before, await countRecords(store, chains))
      return sendOk(reply, 'The stack was reset to its first start', { ...(await view(chain)), undone })
    },
  )
}
