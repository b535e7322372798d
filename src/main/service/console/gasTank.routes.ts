import type { FastifyInstance } from 'fastify'
import { type Address, formatEther, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import type { Dapp } from '../../../shared/api/dapps'
import { GasTankChangeSchema, type GasTankView, GasTankViewSchema } from '../../../shared/api/gasTanks'
import { ENTRY_POINT_VERSIONS, type EntryPointVersion } from '../../../shared/entryPointVersions'
import {
  type Chain,
  createGasTank,
  depositToGasTank,
  getGasTankBalance,
  getGasTankPaymaster,
  listGasTankVersions,
  withdrawFromGasTank,
} from '../chain'
import { AUTH_TOKEN_REQUIRED } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { ChainError, InvalidInputError } from '../errors'
import { parseInput } from '../schemas/inputFields'
import { quantitySchema } from '../schemas/quantitySchema'
import { sendOk } from '../server/restEnvelope'
import { markGasTanksFunded, setDappPaymasterId } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import type { ConsoleChains } from './consoleChains'
import { ConsoleDappParams, DAPP_NOT_FOUND, findConsoleDapp } from './consoleDapp'

/**
 * The tank a request that names no EntryPoint version means: v0.6's, the one tank a dApp had before v0.7 came. The
 * wire API keeps it for clients from then (POST without `entryPointVersion`, GET's top-level fields); it is resolved
 * here, at this one edge, and nowhere below.
 */
const UNNAMED_TANK_VERSION: EntryPointVersion = '0.6'

const ChangeBody = z.object(
  {
    action: z.enum(['deposit', 'withdraw'], { error: 'action must be deposit or withdraw' }),
    amountWei: quantitySchema({ field: 'amountWei' }).refine((wei) => wei > 0n, {
      error: 'amountWei must be a positive whole number of wei',
    }),
    /** The EntryPoint version whose tank changes (each version has its own tank under the one paymasterId). */
    entryPointVersion: z
      .enum(ENTRY_POINT_VERSIONS, {
        error: `entryPointVersion must be one of ${ENTRY_POINT_VERSIONS.join(', ')}`,
      })
      .optional()
      .meta({
        description: `The EntryPoint version whose tank changes; without it, v${UNNAMED_TANK_VERSION}'s (the one tank before v0.7)`,
      }),
    /** Withdraw only: where the ETH goes (default: the paymasterId address itself). */
    to: z
      .string()
      .refine((v) => isAddress(v, { strict: false }), { error: 'to must be an address' })
      .optional(),
  },
  { error: 'Request body must be a JSON object' },
)

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: dApps',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
  params: ConsoleDappParams,
} as const satisfies Partial<RouteDoc>

export type GasTankRoutesOptions = { store: Store; chains: ConsoleChains }

/**
 * The dApp's gas tanks, one per EntryPoint version on that version's verifying paymaster, under one paymasterId:
 * `GET /console/api/dapps/:apiKey/gas-tank` (the v0.6 tank's fields at the top level, every tank in `tanks`) and
 * `POST` `{action: 'deposit'|'withdraw', amountWei, entryPointVersion?, to?}` (without entryPointVersion: the v0.6
 * tank, UNNAMED_TANK_VERSION). A deposit to a dApp without a paymasterId creates it.
 */
export async function registerGasTankRoutes(
  app: FastifyInstance,
  options: GasTankRoutesOptions,
): Promise<void> {
  const { store } = options
  // A dApp's gas tanks are on its own chain (the first chain's for a dApp of a chain not run).
  const requireChain = (dapp: Pick<Dapp, 'chainId'>) => {
    const chain = (options.chains.get(dapp.chainId) ?? options.chains.first)?.chain
    if (!chain) throw new ChainError('The chain is not running: the gas tank lives on chain')
    return chain
  }
  app.get<{ Params: { apiKey: string } }>(
    '/console/api/dapps/:apiKey/gas-tank',
    withDoc({
      ...DOC,
      summary: "The dApp's gas tanks (one per EntryPoint version) and their balances",
      data: GasTankViewSchema,
      errors: { 404: `Unknown apiKey ("${DAPP_NOT_FOUND}")`, 503: 'No chain is running' },
    }),
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      const chain = requireChain(dapp)
      return sendOk(reply, 'Gas tank fetched', await readGasTank(chain, dapp))
    },
  )
  app.post<{ Params: { apiKey: string } }>(
    '/console/api/dapps/:apiKey/gas-tank',
    withDoc({
      ...DOC,
      summary: 'Deposit to or withdraw from a gas tank (a first deposit creates the paymasterId)',
      body: ChangeBody,
      data: GasTankChangeSchema,
      errors: {
        400: 'Invalid input (`message` names the field), an EntryPoint version without a verifying paymaster, or a withdrawal without a gas tank',
        404: `Unknown apiKey ("${DAPP_NOT_FOUND}")`,
        503: 'No chain is running',
      },
    }),
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      const body = parseInput(ChangeBody, request.body)
      const chain = requireChain(dapp)
      const wei = body.amountWei
      const version = body.entryPointVersion ?? UNNAMED_TANK_VERSION
      if (!listGasTankVersions(chain).includes(version))
        throw new InvalidInputError(`EntryPoint v${version} has no verifying paymaster on this chain`)
      let paymasterId = dapp.paymasterId as Address | null
      let hash: string
      if (body.action === 'deposit') {
        if (!paymasterId) {
          const created = await createGasTank(chain, { fundWei: wei, versions: [version] })
          await setDappPaymasterId(store, dapp.id, created.paymasterId)
          paymasterId = created.paymasterId
          hash = created.hash ?? ''
        } else {
          hash = (await depositToGasTank(chain, paymasterId, wei, version)).hash
        }
        await markGasTanksFunded(store, dapp.id, [version])
      } else {
        if (!paymasterId) throw new InvalidInputError('This dApp has no gas tank yet: deposit first')
        const to = body.to ? getAddress(body.to) : paymasterId
        hash = (await withdrawFromGasTank(chain, paymasterId, to, wei, version)).hash
      }
      const view = await readGasTank(chain, { ...dapp, paymasterId })
      return sendOk(reply, body.action === 'deposit' ? 'Deposited' : 'Withdrawn', {
        ...view,
        transactionHash: hash,
      })
    },
  )
}

async function readGasTank(chain: Chain, dapp: Pick<Dapp, 'paymasterId'>): Promise<GasTankView> {
  const paymasterId = dapp.paymasterId as Address | null
  const readTank = async (entryPointVersion: EntryPointVersion) => {
    const balanceWei = paymasterId ? await getGasTankBalance(chain, paymasterId, entryPointVersion) : null
    return {
      entryPointVersion,
      verifyingPaymaster: getGasTankPaymaster(chain, entryPointVersion),
      balanceWei: balanceWei === null ? null : balanceWei.toString(),
      balanceEth: balanceWei === null ? null : formatEther(balanceWei),
    }
  }
  const tanks = await Promise.all(listGasTankVersions(chain).map(readTank))
  const unnamed =
    tanks.find((t) => t.entryPointVersion === UNNAMED_TANK_VERSION) ?? (await readTank(UNNAMED_TANK_VERSION))
  return {
    paymasterId,
    balanceWei: unnamed.balanceWei,
    balanceEth: unnamed.balanceEth,
    verifyingPaymaster: unnamed.verifyingPaymaster,
    tanks,
  }
}
