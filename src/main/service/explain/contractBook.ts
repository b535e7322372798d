import { type Abi, type Address, getContractAddress } from 'viem'
import { simpleAccountAbi } from '../chain/abis/simpleAccount'
import { testTokenAbi } from '../chain/abis/testToken'
import {
  listAccountContracts,
  nameAccountDeployedBy,
  nameDeployedAccount,
} from '../chain/accountZoo/nameAccount'
import { simpleAccountV07Artifact, simpleAccountV08Artifact } from '../chain/artifacts'
import type { Chain } from '../chain/types'
import { VERSION_CONTRACTS } from '../chain/versionContracts'
import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import type { Store } from '../store/openStore'
import type { ExplainContext } from './explainContext'

type AbiError = Extract<Abi[number], { type: 'error' }>
type AbiEvent = Extract<Abi[number], { type: 'event' }>

/** A contract the service can name, with the ABI it decodes its calls, errors and events with (empty: name only). */
export type KnownContract = { name: string; abi: Abi }

/** The contracts the service knows on its chain, by address, and every error and event their ABIs declare. */
export type ContractBook = {
  lookup: (address: Address | null | undefined) => KnownContract | undefined
  /** Every error of every known ABI (for revert data that bubbled up through a contract that does not declare it). */
  readonly errors: Abi
  /** Every event of every known ABI (events are told by their full signature hash, not guessed). */
  readonly events: Abi
}

/** The ABI a zoo account type is decoded with, where the service has it (SimpleAccount's; others are named only). */
function accountAbiOf(name: string): Abi {
  if (name === 'SimpleAccount v0.6') return simpleAccountAbi as Abi
  if (name === 'SimpleAccount v0.7') return simpleAccountV07Artifact.abi as Abi
  if (name === 'SimpleAccount v0.8') return simpleAccountV08Artifact.abi as Abi
  return []
}

export type BuildContractBookParameters = {
  chain: Chain
  entryPoints: readonly EntryPointModule[]
  store: Store
  /** Accounts to name from their code (an operation's sender): zoo types by their implementation. */
  accounts?: readonly Address[]
  /**
   * Accounts the operation deploys, named from their factory when their code does not name them (not deployed yet:
   * a simulation of the operation that deploys one).
   */
  deployments?: readonly { account: Address; name: string }[]
}

/**
 * What the contract book needs to name an operation's sender: its address (named from its code), and the account
 * type its factory deploys when it deploys one.
 */
function readOperationAccounts(
  entryPoint: EntryPointModule,
  userOperation: UserOperationBase,
): Pick<BuildContractBookParameters, 'accounts' | 'deployments'> {
  const { factory } = entryPoint.readEntities(userOperation)
  const name = nameAccountDeployedBy(entryPoint.toWire(userOperation), factory)
  return {
    accounts: [userOperation.sender],
    deployments: name ? [{ account: userOperation.sender, name }] : [],
  }
}

/** The contract book an explanation of `userOperation` reads: what the service knows, and the operation's sender. */
export function buildOperationContractBook(
  { chain, entryPoints, store }: ExplainContext,
  entryPoint: EntryPointModule,
  userOperation: UserOperationBase,
): Promise<ContractBook> {
  return buildContractBook({
    chain,
    entryPoints: entryPoints.list,
    store,
    ...readOperationAccounts(entryPoint, userOperation),
  })
}

/**
 * What the service knows: the EntryPoints it serves, its own paymasters and tokens, every contract a dApp
 * registered (with its ABI), and the zoo type of the accounts asked about (from their code, else from the factory
 * deploying them). A registered contract's own name wins
 * over the service's (it is the developer's).
 */
export async function buildContractBook({
  chain,
  entryPoints,
  store,
  accounts = [],
  deployments = [],
}: BuildContractBookParameters): Promise<ContractBook> {
  const byAddress = new Map<string, KnownContract>()
  const add = (address: Address | undefined, contract: KnownContract) => {
    if (address) byAddress.set(address.toLowerCase(), contract)
  }
  for (const { address, name, role } of listAccountContracts())
    add(address, { name: `${name} ${role}`, abi: role === 'implementation' ? accountAbiOf(name) : [] })
  for (const module of entryPoints) {
    const table = VERSION_CONTRACTS[module.version]
    // Every EntryPoint creates its SenderCreator first, in its constructor.
    add(getContractAddress({ from: module.address, nonce: 1n }), {
      name: `SenderCreator (v${module.version})`,
      abi: [],
    })
    const contracts = module.contracts(chain)
    add(module.address, { name: `EntryPoint v${module.version}`, abi: module.abi })
    add(contracts.verifying.address, {
      name: `Opstation verifying paymaster (v${module.version})`,
      abi: table.verifyingAbi,
    })
    add(contracts.token.address, {
      name: `Opstation token paymaster (v${module.version})`,
      abi: table.tokenAbi,
    })
  }
  for (const token of chain.addresses.tokens)
    add(token.address, { name: token.symbol, abi: testTokenAbi as Abi })
  const named = await Promise.all(
    accounts.map(
      async (address) => [address, await nameDeployedAccount(chain, address).catch(() => null)] as const,
    ),
  )
  for (const { account, name } of deployments) add(account, { name, abi: accountAbiOf(name) })
  for (const [address, name] of named) if (name) add(address, { name, abi: accountAbiOf(name) })
  for (const contract of store.data.smartContracts)
    add(contract.address as Address, { name: contract.name, abi: parseAbi(contract.abi) })

  const errors = new Map<string, AbiError>()
  const events = new Map<string, AbiEvent>()
  for (const { abi } of byAddress.values()) {
    for (const item of abi) {
      if (item.type === 'error') errors.set(signatureOf(item), item)
      if (item.type === 'event') events.set(signatureOf(item), item)
    }
  }
  return {
    lookup: (address) => (address ? byAddress.get(address.toLowerCase()) : undefined),
    errors: [...errors.values()],
    events: [...events.values()],
  }
}

/** A stored ABI (registered through the contracts API, which checked it); an unreadable one decodes nothing. */
function parseAbi(json: string): Abi {
  try {
    const parsed = JSON.parse(json)
    return Array.isArray(parsed) ? (parsed as Abi) : []
  } catch {
    return []
  }
}

/** Name and input types (and indexed flags): two declarations with the same are the same item. */
function signatureOf(item: AbiError | AbiEvent): string {
  return `${item.name}(${item.inputs.map((i: AbiEvent['inputs'][number]) => `${i.type}${'indexed' in i && i.indexed ? ' indexed' : ''}`).join(',')})`
}
