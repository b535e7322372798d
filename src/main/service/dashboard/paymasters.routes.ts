import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Dapp } from '../../../shared/api/dapps'
import { CreatedPaymasterSchema, type PaymasterView, PaymasterViewSchema } from '../../../shared/api/dapps'
import { describeChainIds } from '../chain/chainSpecs'
import { withDoc } from '../docs/routeDoc'
import { UnknownChainError } from '../errors'
import type { Logger } from '../log/logger'
import { jsonObject, parseInput, requiredString } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import { createDapp, listDapps } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { AUTH_AND_API_KEY_REQUIRED, AUTH_TOKEN_REQUIRED, authenticate } from './auth'

export type PaymasterRoutesOptions = {
  store: Store
  /** Chain ids the service serves now. */
  getSupportedChainIds: () => number[]
  /** Gives a new dApp its on-chain gas tank; failures are logged, the dApp is kept. */
  provisionDapp?: (dapp: Dapp) => Promise<void>
  log: Logger
}

const CreatePaymasterBody = jsonObject({
  name: requiredString('name', { max: 100 }).meta({ description: 'Unique for the chain id' }),
  type: z
    .string({ error: (iss) => (iss.input === undefined ? 'type is required' : 'type must be a string') })
    .refine((t) => t.toUpperCase() === 'HYBRID', { error: 'type must be HYBRID' })
    .meta({ description: 'HYBRID (in any letter case)' }),
  chainId: z
    .number({
      error: (iss) => (iss.input === undefined ? 'chainId is required' : 'chainId must be a number'),
    })
    .int({ error: 'chainId must be an integer' })
    .positive({ error: 'chainId must be positive' })
    .meta({ description: 'The chain the service runs (31337 by default)' }),
  version: requiredString('version', { max: 50 }).meta({
    description: 'Version of the paymaster, e.g. 1.1.0',
  }),
})

/** The dApp as the dashboard API shows it. */
export function toPaymasterView(dapp: Dapp): PaymasterView {
  return {
    name: dapp.name,
    chainId: dapp.chainId,
    apiKey: dapp.apiKey,
    type: dapp.type,
    version: dapp.version,
    active: dapp.active,
    paymasterId: dapp.paymasterId,
    createdAt: dapp.createdAt,
  }
}

/** `GET|POST /api/v2/public/sdk/paymaster` (spec 4.4). */
export async function registerPaymasterRoutes(
  app: FastifyInstance,
  options: PaymasterRoutesOptions,
): Promise<void> {
  const { store } = options

  app.get(
    '/api/v2/public/sdk/paymaster',
    withDoc({
      tag: 'Paymasters',
      summary: 'List the paymasters (dApps) of the account',
      auth: 'authToken',
      missingCredentialMessage: AUTH_AND_API_KEY_REQUIRED,
      data: z.array(PaymasterViewSchema),
    }),
    async (request, reply) => {
      const { account } = authenticate(store, request, {
        apiKey: false,
        missingMessage: AUTH_AND_API_KEY_REQUIRED,
      })
      return sendOk(reply, 'Paymasters fetched', listDapps(store, account.id).map(toPaymasterView))
    },
  )

  app.post(
    '/api/v2/public/sdk/paymaster',
    withDoc({
      tag: 'Paymasters',
      summary: 'Create a paymaster (dApp); its apiKey is in the answer',
      description: 'The dApp gets an on-chain gas tank on the verifying paymaster when a chain runs.',
      auth: 'authToken',
      missingCredentialMessage: AUTH_TOKEN_REQUIRED,
      body: CreatePaymasterBody,
      data: CreatedPaymasterSchema,
      errors: {
        400: 'Invalid input (`message` names the field), the name is taken ("paymaster_name_exists") or the chain is not served ("Chain ID not supported", with `data.chainIds`, the chains served)',
      },
    }),
    async (request, reply) => {
      const { account } = authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
      const body = parseInput(CreatePaymasterBody, request.body)
      const chainIds = options.getSupportedChainIds()
      if (!chainIds.includes(body.chainId))
        // The message is the dashboard's own (exact, as clients match on it); the chains run are in `data`.
        throw new UnknownChainError('Chain ID not supported', {
          data: {
            chainId: body.chainId,
            chainIds,
            runs: `this Opstation runs ${describeChainIds(chainIds)}`,
          },
        })
      const dapp = await createDapp(store, {
        accountId: account.id,
        name: body.name,
        chainId: body.chainId,
        type: body.type.toUpperCase(),
        version: body.version,
      })
      if (options.provisionDapp) {
        await options
          .provisionDapp(dapp)
          .catch((err) => options.log.warn({ err, dapp: dapp.id }, 'gas tank not created yet'))
      }
      const created: z.output<typeof CreatedPaymasterSchema> = {
        name: dapp.name,
        chainId: dapp.chainId,
        apiKey: dapp.apiKey,
      }
      return sendOk(reply, 'Paymaster created', created)
    },
  )
}
