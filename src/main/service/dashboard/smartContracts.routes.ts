import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import type { SmartContract } from '../store/schema'
import {
  createSmartContract,
  deleteSmartContract,
  listSmartContracts,
  updateWhitelistedMethods,
} from '../store/smartContracts.repo'
import { AUTH_AND_API_KEY_REQUIRED, type AuthRule, authenticateDapp } from './auth'
import { jsonObject, parseInput, requiredAddress, requiredString, stringArray } from './fields'

const PATH = '/api/v2/public/sdk/smart-contract'
const NOT_FOUND = 'Smart contract not found'
const MAX_ABI_LENGTH = 900 * 1024

const rule: AuthRule = {
  apiKey: true,
  missingMessage: AUTH_AND_API_KEY_REQUIRED,
  unknownApiKeyMessage: NOT_FOUND,
}
const createRule: AuthRule = { ...rule, unknownApiKeyMessage: 'Paymaster not found for this apiKey' }

const CreateBody = jsonObject({
  name: requiredString('name', { max: 100 }),
  address: requiredAddress('address'),
  abi: z
    .string({
      error: (iss) =>
        iss.input === undefined ? 'abi is required' : 'abi must be a string (the stringified ABI)',
    })
    .max(MAX_ABI_LENGTH, { error: `abi must be at most ${MAX_ABI_LENGTH} characters` }),
  whitelistedMethods: stringArray('whitelistedMethods').optional(),
})
const UpdateBody = jsonObject({
  address: requiredAddress('address'),
  whitelistedMethods: z
    .unknown()
    .refine((v) => v !== undefined, { error: 'whitelistedMethods is required' })
    .pipe(stringArray('whitelistedMethods')),
})
const DeleteBody = jsonObject({ address: requiredAddress('address') })

export function toSmartContractView(contract: SmartContract) {
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

  app.post(PATH, async (request, reply) => {
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
  })

  app.get(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, createRule)
    return sendOk(
      reply,
      'Smart contracts fetched',
      listSmartContracts(store, dapp.id).map(toSmartContractView),
    )
  })

  app.patch(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, rule)
    const body = parseInput(UpdateBody, request.body)
    const contract = await updateWhitelistedMethods(store, {
      dappId: dapp.id,
      address: body.address,
      whitelistedMethods: body.whitelistedMethods,
    })
    return sendOk(reply, 'Smart contract updated', toSmartContractView(contract))
  })

  app.delete(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, rule)
    const body = parseInput(DeleteBody, request.body)
    await deleteSmartContract(store, { dappId: dapp.id, address: body.address })
    return sendOk(reply, 'Smart contract deleted')
  })
}
