import { getAddress } from 'viem'
import type { SmartContract } from '../../../shared/api/smartContracts'
import { ConflictError, NotFoundError } from '../errors'
import { assertMethodsInAbi, parseContractAbi } from '../schemas/parseContractAbi'
import { generateId } from './ids'
import type { Store } from './openStore'

export type CreateSmartContractParameters = {
  dappId: string
  name: string
  address: string
  abi: string
  whitelistedMethods: string[]
}

const NOT_FOUND = 'Smart contract not found'

/** Registers a contract for a dApp. The address is unique per dApp (case-insensitive), so is the name. */
export async function createSmartContract(
  store: Store,
  params: CreateSmartContractParameters,
  now = new Date(),
): Promise<SmartContract> {
  const parsed = parseContractAbi(params.abi)
  const whitelistedMethods = unique(params.whitelistedMethods)
  assertMethodsInAbi(whitelistedMethods, parsed)
  const address = getAddress(params.address)
  const contract: SmartContract = {
    id: generateId(),
    dappId: params.dappId,
    name: params.name,
    address,
    abi: params.abi,
    whitelistedMethods,
    methods: parsed.methods,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  }
  return store.update((doc) => {
    const ofDapp = doc.smartContracts.filter((c) => c.dappId === params.dappId)
    if (ofDapp.some((c) => c.address.toLowerCase() === address.toLowerCase())) {
      throw new ConflictError('Smart contract address already exists')
    }
    if (ofDapp.some((c) => c.name === params.name))
      throw new ConflictError('Smart contract name already exists')
    doc.smartContracts.push(contract)
    return contract
  })
}

export function listSmartContracts(store: Store, dappId: string): SmartContract[] {
  return store.data.smartContracts.filter((c) => c.dappId === dappId)
}

export function findSmartContract(store: Store, dappId: string, address: string): SmartContract | undefined {
  const wanted = address.toLowerCase()
  return store.data.smartContracts.find((c) => c.dappId === dappId && c.address.toLowerCase() === wanted)
}

/** Replaces the whitelisted methods of a registered contract; each must be a callable method of its ABI. */
export async function updateWhitelistedMethods(
  store: Store,
  params: { dappId: string; address: string; whitelistedMethods: string[] },
  now = new Date(),
): Promise<SmartContract> {
  const contract = findSmartContract(store, params.dappId, params.address)
  if (!contract) throw new NotFoundError(NOT_FOUND)
  const whitelistedMethods = unique(params.whitelistedMethods)
  assertMethodsInAbi(whitelistedMethods, parseContractAbi(contract.abi))
  return store.update(() => {
    contract.whitelistedMethods = whitelistedMethods
    contract.updatedAt = now.toISOString()
    return contract
  })
}

export async function deleteSmartContract(
  store: Store,
  params: { dappId: string; address: string },
): Promise<void> {
  const contract = findSmartContract(store, params.dappId, params.address)
  if (!contract) throw new NotFoundError(NOT_FOUND)
  await store.update((doc) => {
    doc.smartContracts = doc.smartContracts.filter((c) => c !== contract)
  })
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
