import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Dapp } from '../../../shared/api/dapps'
import type { Sponsorship } from '../../../shared/api/sponsorships'
import {
  SponsorshipListSchema,
  type SponsorshipView,
  SponsorshipViewSchema,
} from '../../../shared/api/sponsorships'
import { AUTH_TOKEN_REQUIRED, UNKNOWN_API_KEY } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { NotFoundError } from '../errors'
import { parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import { findDappByApiKey, listDapps } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { findSponsorship, listSponsorships } from '../store/sponsorships.repo'
import { authenticateConsole } from './consoleDapp'

const ListQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(5000, { error: 'limit must be at most 5000' })
    .default(100),
  apiKey: z
    .string({ error: 'apiKey must be one string' })
    .optional()
    .meta({ description: "Only this dApp's" }),
  sponsored: z.enum(['true', 'false'], { error: 'sponsored must be true or false' }).optional(),
  sender: z
    .string({ error: 'sender must be one string' })
    .optional()
    .meta({ description: "Only this account's" }),
})

const PARAMS = z.object({ id: z.string().meta({ description: 'The decision' }) })

/** What the routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: activity',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
} as const satisfies Partial<RouteDoc>

export function toSponsorshipView(sponsorship: Sponsorship, dapp: Dapp | undefined): SponsorshipView {
  return { ...sponsorship, at: sponsorship.time, apiKey: dapp?.apiKey ?? null, dappName: dapp?.name ?? null }
}

/**
 * Why an op was or was not sponsored: `GET /console/api/sponsorship-decisions?limit&apiKey&sponsored&sender`
 * (newest first) and `GET /console/api/sponsorship-decisions/:id`; `/console/api/sponsorships` is the same.
 */
export async function registerSponsorshipRoutes(
  app: FastifyInstance,
  options: { store: Store },
): Promise<void> {
  const { store } = options
  for (const base of ['/console/api/sponsorship-decisions', '/console/api/sponsorships']) {
    const alias = base.endsWith('/sponsorships') ? ' (the same as /console/api/sponsorship-decisions)' : ''
    app.get(
      base,
      withDoc({
        ...DOC,
        summary: `The paymaster's sponsorship decisions, newest first${alias}`,
        query: ListQuery,
        data: SponsorshipListSchema,
        errors: { 404: `Unknown apiKey ("${UNKNOWN_API_KEY}")` },
      }),
      async (request, reply) => {
        const account = authenticateConsole(store, request)
        const query = parseInput(ListQuery, request.query ?? {})
        const dapps = listDapps(store, account.id)
        let scope = dapps
        if (query.apiKey) {
          const dapp = findDappByApiKey(store, query.apiKey, account.id)
          if (!dapp) throw new NotFoundError(UNKNOWN_API_KEY)
          scope = [dapp]
        }
        const byId = new Map(dapps.map((d) => [d.id, d]))
        const items = listSponsorships(store, {
          dappIds: scope.map((d) => d.id),
          limit: query.limit,
          sponsored: query.sponsored === undefined ? undefined : query.sponsored === 'true',
          sender: query.sender,
        }).map((s) => toSponsorshipView(s, byId.get(s.dappId)))
        return sendOk(reply, 'Sponsorship decisions fetched', { items })
      },
    )
    app.get<{ Params: { id: string } }>(
      `${base}/:id`,
      withDoc({
        ...DOC,
        summary: `One sponsorship decision with its policy steps${alias}`,
        params: PARAMS,
        data: SponsorshipViewSchema,
        errors: { 404: 'Unknown decision' },
      }),
      async (request, reply) => {
        const account = authenticateConsole(store, request)
        const sponsorship = findSponsorship(store, request.params.id)
        const dapp =
          sponsorship &&
          store.data.dapps.find((d) => d.id === sponsorship.dappId && d.accountId === account.id)
        if (!sponsorship || !dapp)
          throw new NotFoundError(`Sponsorship decision ${request.params.id} not found`)
        return sendOk(reply, 'Sponsorship decision fetched', toSponsorshipView(sponsorship, dapp))
      },
    )
  }
}
