import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  BLOCK_WINDOW_VERSIONS_NOTE,
  type DappPolicies,
  type DappPoliciesPatch,
  DappPoliciesSchema,
  MAX_WINDOW_BLOCK,
  MIN_VALID_FOR_BLOCKS,
} from '../../../shared/api/dapps'
import { AUTH_TOKEN_REQUIRED } from '../dashboard/auth'
import { type Accepts, type RouteDoc, withDoc } from '../docs/routeDoc'
import { InvalidInputError } from '../errors'
import { parseInput } from '../schemas/inputFields'
import { quantitySchema } from '../schemas/quantitySchema'
import { sendOk } from '../server/restEnvelope'
import { setDappPolicies } from '../store/dappPolicies.repo'
import { generateId } from '../store/ids'
import type { Store } from '../store/openStore'
import { ConsoleDappParams, DAPP_NOT_FOUND, findConsoleDapp } from './consoleDapp'

/** The last second of year 9999 (the latest time an ISO date can show). */
const MAX_UNIX_SECONDS = 253_402_300_799
/** Longest limit cycle: 100 000 hours or days. */
const MAX_CYCLE_VALUE = 100_000

const unixSeconds = (field: string) =>
  z
    .number({ error: `${field} must be a unix time in seconds or null` })
    .int({ error: `${field} must be whole seconds` })
    .nonnegative({ error: `${field} must not be negative` })
    .max(MAX_UNIX_SECONDS, { error: `${field} must be at most ${MAX_UNIX_SECONDS} (the end of year 9999)` })
    .nullable()

const blockNumber = (field: string, least: number) =>
  z
    .number({ error: `${field} must be a block number or null` })
    .int({ error: `${field} must be a whole block number` })
    .min(least, { error: `${field} must be at least ${least}` })
    .max(MAX_WINDOW_BLOCK, {
      error: `${field} must be at most ${MAX_WINDOW_BLOCK} (the largest block a window names)`,
    })

const BlockWindowBody = z
  .strictObject(
    {
      validForBlocks: z
        .number({
          error: (iss) =>
            iss.input === undefined
              ? 'blockWindow.validForBlocks is required (how many blocks each sponsorship is valid for)'
              : 'blockWindow.validForBlocks must be a number of blocks',
        })
        .int({ error: 'blockWindow.validForBlocks must be a whole number of blocks' })
        .min(MIN_VALID_FOR_BLOCKS, {
          error: `blockWindow.validForBlocks must be at least ${MIN_VALID_FOR_BLOCKS} (the bundler admits an operation only while it stays valid for ${MIN_VALID_FOR_BLOCKS} more blocks)`,
        })
        .max(MAX_WINDOW_BLOCK, { error: `blockWindow.validForBlocks must be at most ${MAX_WINDOW_BLOCK}` }),
      validAfterBlock: blockNumber('blockWindow.validAfterBlock', 0).nullable().default(null),
      validUntilBlock: blockNumber('blockWindow.validUntilBlock', 1).nullable().default(null),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `blockWindow takes only validForBlocks, validAfterBlock and validUntilBlock, not ${iss.keys.join(', ')}`
          : 'blockWindow must be { validForBlocks, validAfterBlock?, validUntilBlock? } or null',
    },
  )
  .refine(
    (w) => w.validAfterBlock === null || w.validUntilBlock === null || w.validAfterBlock < w.validUntilBlock,
    { error: 'blockWindow.validAfterBlock must be before blockWindow.validUntilBlock' },
  )
  .nullable()
  .meta({
    description: `Sign sponsorships for a window in block numbers (null: time windows). ${BLOCK_WINDOW_VERSIONS_NOTE}`,
  })

const LimitBody = z.object(
  {
    id: z
      .string({ error: 'limit id must be a string' })
      .min(1, { error: 'limit id must not be empty' })
      .optional(),
    type: z.enum(['PAYMASTER', 'SMART_ACCOUNT'], { error: 'limit type must be PAYMASTER or SMART_ACCOUNT' }),
    thresholdType: z.enum(['COUNT', 'NATIVE_ASSET'], {
      error: 'thresholdType must be COUNT or NATIVE_ASSET',
    }),
    threshold: quantitySchema({ field: 'threshold' })
      .refine((threshold) => threshold > 0n, {
        error: 'threshold must be a positive whole number (count, or wei as a decimal string)',
      })
      .transform(String),
    cycleDuration: z.object(
      {
        value: z
          .number({ error: 'cycleDuration.value must be a number' })
          .int({ error: 'cycleDuration.value must be a whole number' })
          .positive({ error: 'cycleDuration.value must be positive' })
          .max(MAX_CYCLE_VALUE, { error: `cycleDuration.value must be at most ${MAX_CYCLE_VALUE}` }),
        unit: z.enum(['hour', 'day'], { error: 'cycleDuration.unit must be hour or day' }),
      },
      { error: 'cycleDuration must be { value, unit }' },
    ),
    active: z.boolean({ error: 'active must be a boolean' }).default(true),
  },
  { error: 'each limit must be an object' },
)

const PatchBody = z.object(
  {
    limits: z
      .array(LimitBody, { error: 'limits must be an array' })
      .max(50, { error: 'at most 50 limits' })
      .optional(),
    validAfter: unixSeconds('validAfter').optional(),
    validUntil: unixSeconds('validUntil').optional(),
    blockWindow: BlockWindowBody.optional(),
    premiumPercentage: z
      .number({ error: 'premiumPercentage must be a number' })
      .min(0, { error: 'premiumPercentage must be between 0 and 100' })
      .max(100, { error: 'premiumPercentage must be between 0 and 100' })
      .optional(),
  },
  { error: 'Request body must be a JSON object' },
)

type _CheckedPatchBody = Accepts<typeof PatchBody, DappPoliciesPatch>

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: dApps',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
  params: ConsoleDappParams,
  data: DappPoliciesSchema,
} as const satisfies Partial<RouteDoc>

/**
 * A dApp's sponsorship policies: `GET /console/api/dapps/:apiKey/policies` and `PATCH` with any of `limits`
 * (replaces the list), `validAfter`, `validUntil` (unix seconds or null), `blockWindow` (v0.9 sponsorships signed for
 * a window in block numbers, or null) and `premiumPercentage` (ERC20 quotes).
 */
export async function registerDappPolicyRoutes(
  app: FastifyInstance,
  options: { store: Store },
): Promise<void> {
  const { store } = options
  app.get<{ Params: { apiKey: string } }>(
    '/console/api/dapps/:apiKey/policies',
    withDoc({
      ...DOC,
      summary:
        "The dApp's sponsorship policies: spending limits, time window, v0.9 block window, ERC20 premium",
      errors: { 404: `Unknown apiKey ("${DAPP_NOT_FOUND}")` },
    }),
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      return sendOk(reply, 'Policies fetched', dapp.policies)
    },
  )
  app.patch<{ Params: { apiKey: string } }>(
    '/console/api/dapps/:apiKey/policies',
    withDoc({
      ...DOC,
      summary:
        'Change the policies: any of `limits` (replaces the list), `validAfter`, `validUntil`, `blockWindow` (EntryPoint v0.9 only), `premiumPercentage`',
      body: PatchBody,
      errors: {
        400: 'Invalid input (`message` names the field), "validAfter must be before validUntil", "blockWindow.validAfterBlock must be before blockWindow.validUntilBlock", or a limit id twice',
        404: `Unknown apiKey ("${DAPP_NOT_FOUND}")`,
      },
    }),
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      const body = parseInput(PatchBody, request.body)
      const next: DappPolicies = {
        limits: body.limits
          ? body.limits.map((l) => ({ ...l, id: l.id ?? generateId() }))
          : dapp.policies.limits,
        validAfter: body.validAfter === undefined ? dapp.policies.validAfter : body.validAfter,
        validUntil: body.validUntil === undefined ? dapp.policies.validUntil : body.validUntil,
        blockWindow: body.blockWindow === undefined ? dapp.policies.blockWindow : body.blockWindow,
        premiumPercentage: body.premiumPercentage ?? dapp.policies.premiumPercentage,
      }
      if (next.validAfter !== null && next.validUntil !== null && next.validAfter >= next.validUntil) {
        throw new InvalidInputError('validAfter must be before validUntil')
      }
      const ids = new Set<string>()
      for (const limit of next.limits) {
        if (ids.has(limit.id)) throw new InvalidInputError(`limit id ${limit.id} appears twice`)
        ids.add(limit.id)
      }
      return sendOk(reply, 'Policies updated', await setDappPolicies(store, dapp.id, next))
    },
  )
}
