import { createSmartAccountClient } from 'permissionless-v02'
import {
  toBiconomySmartAccount,
  toEtherspotSmartAccount,
  toKernelSmartAccount,
  toLightSmartAccount,
  toNexusSmartAccount,
  toSafeSmartAccount,
  toSimpleSmartAccount,
  toThirdwebSmartAccount,
  toTrustSmartAccount,
} from 'permissionless-v02/accounts'
import { createPimlicoClient } from 'permissionless-v02/clients/pimlico'
import {
  type Address,
  createPublicClient,
  type Hash,
  http,
  type LocalAccount,
  type PublicClient,
  parseAbi,
  parseEther,
  parseEventLogs,
  zeroAddress,
} from 'viem'
import { entryPoint06Address, entryPoint07Address, type SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../src/main/service/chain'
import { getZooAddress } from '../../src/main/service/chain/accountZoo/zooContracts'
import { randomAddress } from '../integration/bundler/bundlerTestKit'
import { proveClientCell } from '../integration/clients/clientMatrix'
import {
  accountTypeOf,
  type ClientTestSetup,
  expectSafeModeRefusal,
  inUnsafeMode,
  NEXUS_SAFE_MODE_REFUSAL,
  type SafeModeRefusal,
  withClientTestService,
} from '../integration/clients/clientTestKit'
import { tokenBalance } from '../integration/paymaster/paymasterTestKit'

const setup = withClientTestService()

const v06 = { address: entryPoint06Address, version: '0.6' } as const
const v07 = { address: entryPoint07Address, version: '0.7' } as const

/** Builds an account with permissionless 0.2, as a dApp would (only the client and the owner are given). */
type CreateAccount = (client: PublicClient, owner: LocalAccount) => Promise<SmartAccount>

type AccountCase = {
  account: string
  entryPoint: '0.6' | '0.7'
  /** How Activity names the account's type. */
  type: string
  create: CreateAccount
  /** ERC-7562 forbids its first operation: safe mode refuses it, and its cells are proven in unsafe mode. */
  refusedInSafeMode?: SafeModeRefusal
}

/** Every account permissionless 0.2 builds whose contracts the zoo holds. */
const accounts: AccountCase[] = [
  {
    account: 'Simple',
    entryPoint: '0.6',
    type: 'SimpleAccount v0.6',
    create: (client, owner) => toSimpleSmartAccount({ client, owner, entryPoint: v06 }),
  },
  {
    account: 'Simple',
    entryPoint: '0.7',
    type: 'SimpleAccount v0.7',
    create: (client, owner) => toSimpleSmartAccount({ client, owner, entryPoint: v07 }),
  },
  {
    account: 'Safe 1.4.1',
    entryPoint: '0.6',
    type: 'Safe 1.4.1',
    create: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v06 }),
  },
  {
    account: 'Safe 1.4.1',
    entryPoint: '0.7',
    type: 'Safe 1.4.1',
    create: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v07 }),
  },
  {
    account: 'Kernel 0.2.2',
    entryPoint: '0.6',
    type: 'Kernel v2.2',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.2.2', entryPoint: v06 }),
  },
  {
    account: 'Kernel 0.2.4',
    entryPoint: '0.6',
    type: 'Kernel v2.4',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.2.4', entryPoint: v06 }),
  },
  {
    account: 'Kernel 0.3.0',
    entryPoint: '0.7',
    type: 'Kernel v3.0',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.0-beta', entryPoint: v07 }),
  },
  {
    account: 'Kernel 0.3.1',
    entryPoint: '0.7',
    type: 'Kernel v3.1',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.1', entryPoint: v07 }),
  },
  {
    account: 'Kernel 0.3.3',
    entryPoint: '0.7',
    type: 'Kernel v3.3',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.3', entryPoint: v07 }),
  },
  {
    account: 'LightAccount 1.1.0',
    entryPoint: '0.6',
    type: 'LightAccount v1.1.0',
    create: (client, owner) => toLightSmartAccount({ client, owner, version: '1.1.0', entryPoint: v06 }),
  },
  {
    account: 'LightAccount 2.0.0',
    entryPoint: '0.7',
    type: 'LightAccount v2.0.0',
    create: (client, owner) => toLightSmartAccount({ client, owner, version: '2.0.0', entryPoint: v07 }),
  },
  {
    account: 'Biconomy Smart Account v2',
    entryPoint: '0.6',
    type: 'Biconomy Smart Account v2',
    create: (client, owner) => toBiconomySmartAccount({ client, owners: [owner], entryPoint: v06 }),
  },
  {
    account: 'Nexus 1.0.0',
    entryPoint: '0.7',
    type: 'Nexus 1.0',
    create: (client, owner) =>
      toNexusSmartAccount({ client, owners: [owner], version: '1.0.0', entryPoint: v07 }),
    refusedInSafeMode: NEXUS_SAFE_MODE_REFUSAL,
  },
  {
    account: 'Etherspot',
    entryPoint: '0.7',
    type: 'Etherspot modular wallet',
    create: (client, owner) => toEtherspotSmartAccount({ client, owners: [owner], entryPoint: v07 }),
  },
  {
    account: 'thirdweb',
    entryPoint: '0.6',
    type: 'thirdweb',
    create: (client, owner) => toThirdwebSmartAccount({ client, owner, entryPoint: v06 }),
  },
  {
    account: 'thirdweb',
    entryPoint: '0.7',
    type: 'thirdweb',
    create: (client, owner) => toThirdwebSmartAccount({ client, owner, entryPoint: v07 }),
  },
]

/**
 * A fresh account from `create` in permissionless 0.2's own smart account client, set up as its docs show: the
 * bundler transport, fees from `pimlico_getUserOperationGasPrice`, and (sponsored) a Pimlico client at the dApp's
 * ERC-7677 paymaster URL as its paymaster. Self-paid accounts get 1 ETH first.
 */
async function createPermissionless02Client(
  setup: ClientTestSetup,
  create: CreateAccount,
  sponsored: boolean,
) {
  const chain = setup.service.chain!
  const client = createPublicClient({
    chain: { ...foundry, id: chain.chainId },
    transport: http(setup.service.info().rpcUrl!),
  })
  const account = await create(client, privateKeyToAccount(generatePrivateKey()))
  if (!sponsored) await fundEth(chain, account.address, parseEther('1'))
  const { bundlerUrl } = setup.service.info()
  const entryPoint = { address: account.entryPoint.address, version: account.entryPoint.version }
  const pimlicoClient = createPimlicoClient({ transport: http(bundlerUrl), entryPoint })
  const smartAccountClient = createSmartAccountClient({
    account,
    client,
    bundlerTransport: http(bundlerUrl),
    paymaster: sponsored
      ? createPimlicoClient({ transport: http(setup.dapp.paymasterUrl), entryPoint })
      : undefined,
    userOperation: {
      estimateFeesPerGas: async () => (await pimlicoClient.getUserOperationGasPrice()).fast,
    },
    pollingInterval: 50,
  })
  return { client, account, smartAccountClient }
}

const userOperationEvent = parseAbi([
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
])

/** The UserOperationEvent of the bundle transaction permissionless 0.2's `sendTransaction` returned. */
async function readUserOperationEvent(client: PublicClient, transactionHash: Hash, sender: Address) {
  const receipt = await client.getTransactionReceipt({ hash: transactionHash })
  const events = parseEventLogs({ abi: userOperationEvent, logs: receipt.logs })
  const event = events.find((e) => e.args.sender === sender)
  if (!event) throw new Error(`no UserOperationEvent of ${sender} in ${transactionHash}`)
  return { ...event.args, entryPoint: event.address }
}

/** Deploys the account with a sponsored call sent by permissionless 0.2's client, and checks it on chain. */
async function expectSponsoredMint(setup: ClientTestSetup, create: CreateAccount) {
  const { client, account, smartAccountClient } = await createPermissionless02Client(setup, create, true)
  const alice = randomAddress()
  const transactionHash = await smartAccountClient.sendTransaction({ calls: [setup.mint(alice, 7n)] })
  const event = await readUserOperationEvent(client, transactionHash, account.address)
  expect(event.success).toBe(true)
  expect(event.paymaster).not.toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
  expect(await client.getBalance({ address: account.address })).toBe(0n)
  return { client, account, smartAccountClient, userOpHash: event.userOpHash }
}

/** Deploys the account with a self-paid batch of two calls sent by permissionless 0.2's client, and checks it on chain. */
async function expectSelfPaidMint(setup: ClientTestSetup, create: CreateAccount) {
  const { client, account, smartAccountClient } = await createPermissionless02Client(setup, create, false)
  const alice = randomAddress()
  const transactionHash = await smartAccountClient.sendTransaction({
    calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)],
  })
  const event = await readUserOperationEvent(client, transactionHash, account.address)
  expect(event.success).toBe(true)
  expect(event.paymaster).toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  // The EntryPoint took the prefund from the account and keeps what the operation did not use as its deposit.
  const balance = await client.getBalance({ address: account.address })
  const deposit = await client.readContract({
    address: event.entryPoint,
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [account.address],
  })
  expect(balance + deposit).toBe(parseEther('1') - event.actualGasCost)
}

describe.each(accounts)(
  'permissionless 0.2 $account (EntryPoint $entryPoint)',
  ({ account, entryPoint, type, create, refusedInSafeMode }) => {
    // An account safe mode refuses is proven with the safety rules off, and its cells say so.
    const cellAccount = refusedInSafeMode ? `${account} (unsafe mode)` : account
    const inMode = <T>(run: () => Promise<T>) => (refusedInSafeMode ? inUnsafeMode(setup, run) : run())

    if (refusedInSafeMode)
      it(`is refused in safe mode: ${refusedInSafeMode.why} [${refusedInSafeMode.rule}]`, async () => {
        const { smartAccountClient } = await createPermissionless02Client(setup, create, true)
        await expectSafeModeRefusal(
          () => smartAccountClient.sendTransaction({ calls: [setup.mint(randomAddress(), 1n)] }),
          refusedInSafeMode,
        )
      })

    it('deploys the account and calls a contract through its smart account client, sponsored by the paymaster through ERC-7677', async (context) => {
      proveClientCell(context, {
        client: 'permissionless 0.2',
        account: cellAccount,
        entryPoint,
        payment: 'sponsored',
      })
      await inMode(() => expectSponsoredMint(setup, create))
    })

    it(`names the account type in Activity: ${type}, from the factory when deploying and from the chain after`, () =>
      inMode(async () => {
        const { client, account, smartAccountClient, userOpHash } = await expectSponsoredMint(setup, create)
        expect(await accountTypeOf(setup, userOpHash)).toBe(type)
        const next = await smartAccountClient.sendTransaction({ calls: [setup.mint(randomAddress(), 1n)] })
        const event = await readUserOperationEvent(client, next, account.address)
        expect(event.success).toBe(true)
        expect(await accountTypeOf(setup, event.userOpHash)).toBe(type)
      }))

    it('deploys the account with a batch of two calls through its smart account client, paying for its own gas', async (context) => {
      proveClientCell(context, {
        client: 'permissionless 0.2',
        account: cellAccount,
        entryPoint,
        payment: 'self-paid',
      })
      await inMode(() => expectSelfPaidMint(setup, create))
    })
  },
)

describe('permissionless 0.2 Trust (Barz, EntryPoint 0.6)', () => {
  const create: CreateAccount = (client, owner) => toTrustSmartAccount({ client, owner, entryPoint: v06 })
  const trustFallbackHandler = getZooAddress('trustDefaultFallbackHandler')
  it('is refused in safe mode: its validation reads the facet table of the DefaultFallbackHandler, an unstaked non-entity contract [STO-033]', async () => {
    const { smartAccountClient } = await createPermissionless02Client(setup, create, true)
    const error = await smartAccountClient
      .sendTransaction({ calls: [setup.mint(randomAddress(), 1n)] })
      .catch((e) => e)
    expect(String(error?.details)).toContain(`of ${trustFallbackHandler}`)
    expect(String(error?.details)).toContain('[STO-033]')
  })

  it('works sponsored and self-paid with the safety rules off (--unsafe), as peers in unsafe mode do', async (context) => {
    const cell = { client: 'permissionless 0.2', account: 'Trust (unsafe mode)', entryPoint: '0.6' } as const
    proveClientCell(context, { ...cell, payment: 'sponsored' }, { ...cell, payment: 'self-paid' })
    await inUnsafeMode(setup, async () => {
      await expectSponsoredMint(setup, create)
      await expectSelfPaidMint(setup, create)
    })
  })
})
