import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { SmartContract } from '../../../shared/api/smartContracts'
import { type SmartContractView, SmartContractViewSchema } from '../../../shared/api/smartContracts'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { jsonObject, parseInput, requiredAddress, requiredString, stringArray } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import {
  createSmartContract,
  deleteSmartContract,
  listSmartContracts,
  updateWhitelistedMethods,
} from '../store/smartContracts.repo'
import { AUTH_AND_API_KEY_REQUIRED, type AuthRule, authenticateDapp, UNKNOWN_API_KEY } from './auth'

const PATH = '/api/v2/public/sdk/smart-contract'
const NOT_FOUND = 'Smart contract not found'
const MAX_ABI_LENGTH = 900 * 1024

const rule: AuthRule = {
  apiKey: true,
  missingMessage: AUTH_AND_API_KEY_REQUIRED,
  unknownApiKeyMessage: NOT_FOUND,
}
const createRule: AuthRule = { ...rule, unknownApiKeyMessage: UNKNOWN_API_KEY }

const whitelistedMethods = stringArray('whitelistedMethods').meta({
  description: 'Names of the ABI methods the dApp sponsors',
})
const CreateBody = jsonObject({
  name: requiredString('name', { max: 100 }).meta({ description: "Unique among the dApp's contracts" }),
  address: requiredAddress('address').meta({ description: "Unique among the dApp's contracts" }),
  abi: z
    .string({
      error: (iss) =>
        iss.input === undefined ? 'abi is required' : 'abi must be a string (the stringified ABI)',
    })
    .max(MAX_ABI_LENGTH, { error: `abi must be at most ${MAX_ABI_LENGTH} characters` })
    .meta({ description: 'The ABI as a JSON string' }),
  whitelistedMethods: whitelistedMethods.optional(),
})
const UpdateBody = jsonObject({
  address: requiredAddress('address'),
  whitelistedMethods,
})
const DeleteBody = jsonObject({ address: requiredAddress('address') })

/** What the four routes share in the OpenAPI document. */
const DOC = {
  tag: 'Smart contracts',
  auth: 'authTokenAndApiKey',
  missingCredentialMessage: AUTH_AND_API_KEY_REQUIRED,
} as const satisfies Partial<RouteDoc>

export function toSmartContractView(contract: SmartContract): SmartContractView {
  return {
    name: contract.name,
    address: contract.address,
    abi: contract.abi,
    whitelistedMethods: contract.whitelistedMethods,
    methods: contract.methods,
  }
}

/** `/api/v2/public/sdk/smart-contract`: create, list, update whitelisted methods, delete (spec 4.5). */
export async function registerSmartContractRoutes(
  app: FastifyInstance,
  options: { store: Store },
): Promise<void> {
  const { store } = options

  app.post(
    PATH,
    withDoc({
      ...DOC,
      summary: 'Add a smart contract with its ABI and the methods the dApp sponsors',
      body: CreateBody,
      errors: {
        400: 'Invalid input (`message` names the field), a whitelisted method that is not in the ABI, or the address or name is taken ("Smart contract address already exists")',
        404: `Unknown apiKey ("${UNKNOWN_API_KEY}")`,
      },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, createRule)
      const body = parseInput(CreateBody, request.body)
      await createSmartContract(store, {
        dappId: dapp.id,
        name: body.name,
        address: body.address,
        abi: body.abi,
        whitelistedMethods: body.whitelistedMethods ?? [],
      })
      return sendOk(reply, 'Smart contract registered')
    },
  )

  app.get(
    PATH,
    withDoc({
      ...DOC,
      summary: "List the dApp's smart contracts",
      data: z.array(SmartContractViewSchema),
      errors: { 404: `Unknown apiKey ("${UNKNOWN_API_KEY}")` },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, createRule)
      return sendOk(
        reply,
        'Smart contracts fetched',
        listSmartContracts(store, dapp.id).map(toSmartContractView),
      )
    },
  )

  app.patch(
    PATH,
    withDoc({
      ...DOC,
      summary: 'Replace the whitelisted methods of a smart contract',
      body: UpdateBody,
      data: SmartContractViewSchema,
      errors: {
        400: 'Invalid input ("whitelistedMethods must be an array"), or a method that is not in the ABI',
        404: `Unknown apiKey or address ("${NOT_FOUND}")`,
      },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, rule)
      const body = parseInput(UpdateBody, request.body)
      const contract = await updateWhitelistedMethods(store, {
        dappId: dapp.id,
        address: body.address,
        whitelistedMethods: body.whitelistedMethods,
      })
      return sendOk(reply, 'Smart contract updated', toSmartContractView(contract))
    },
  )

  app.delete(
    PATH,
    withDoc({
      ...DOC,
      summary: 'Delete a smart contract',
      body: DeleteBody,
      errors: { 404: `Unknown apiKey or address ("${NOT_FOUND}")` },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, rule)
      const body = parseInput(DeleteBody, request.body)
      await deleteSmartContract(store, { dappId: dapp.id, address: body.address })
      return sendOk(reply, 'Smart contract deleted')
    },
  )
}
