import { erc7677Middleware, LocalAccountSigner, split, type UserOperationReceipt } from '@aa-sdk/core'
import {
  createLightAccountClient,
  createModularAccountV2Client,
  createMultiOwnerModularAccountClient,
  createMultisigModularAccountClient,
} from '@account-kit/smart-contracts'
import { type Address, defineChain, type Hex, http, parseAbi, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../src/main/service/chain'
import { publicClientOf, randomAddress } from '../integration/bundler/bundlerTestKit'
import { proveClientCell } from '../integration/clients/clientMatrix'
import {
  accountTypeOf,
  type ClientTestSetup,
  withClientTestService,
} from '../integration/clients/clientTestKit'
import { tokenBalance } from '../integration/paymaster/paymasterTestKit'

/**
 * A service on the default chain id, and one on 1337: account-kit's multisig client finds its MultisigPlugin by chain
 * id and knows it on 1337 (Geth's dev chain id) but not on 31337 (anvil's), and takes no address for it.
 */
const setups = { 31337: withClientTestService(), 1337: withClientTestService({ chainId: 1337 }) }

const client = '@account-kit 4'
const funding = parseEther('1')

/** What account-kit's docs route to a non-Alchemy bundler (`split`'s example), the rest going to the node. */
const bundlerMethods = [
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_supportedEntryPoints',
]
const paymasterMethods = ['pm_getPaymasterStubData', 'pm_getPaymasterData']

/** What a test passes to each account-kit client factory: the local chain, its transport, a fresh local owner key. */
type ClientParameters = ReturnType<typeof clientParameters>

type AccountKitCase = {
  account:
    | 'LightAccount 1.1.0'
    | 'LightAccount 2.0.0'
    | 'Modular Account v1'
    | 'Modular Account v1 multisig'
    | 'Modular Account v2'
  /** The account-kit function that builds the client. */
  clientFunction: string
  entryPoint: '0.6' | '0.7'
  /** How Activity names the account's type (as for permissionless' LightAccount). */
  type: string
  create: (parameters: ClientParameters) => Promise<AccountKitClient>
  /** The service's chain id (31337 unless the client needs another). */
  chainId?: 1337
}

const accountKitCases: AccountKitCase[] = [
  {
    account: 'LightAccount 1.1.0',
    clientFunction: 'createLightAccountClient',
    entryPoint: '0.6',
    type: 'LightAccount v1.1.0',
    create: (parameters) => createLightAccountClient({ ...parameters, version: 'v1.1.0' }),
  },
  {
    account: 'LightAccount 2.0.0',
    clientFunction: 'createLightAccountClient',
    entryPoint: '0.7',
    type: 'LightAccount v2.0.0',
    create: (parameters) => createLightAccountClient({ ...parameters, version: 'v2.0.0' }),
  },
  {
    // Its defaults: the MultiOwnerModularAccountFactory and the MultiOwnerPlugin of Modular Account v1.0.
    account: 'Modular Account v1',
    clientFunction: 'createMultiOwnerModularAccountClient',
    entryPoint: '0.6',
    type: 'Modular Account v1',
    create: (parameters) => createMultiOwnerModularAccountClient(parameters),
  },
  {
    // Its defaults: the MultisigModularAccountFactory and MultisigPlugin (alchemyplatform/multisig-plugin), one
    // owner, threshold 1: each operation carries all its signatures (signature type ACTUAL).
    account: 'Modular Account v1 multisig',
    clientFunction: 'createMultisigModularAccountClient',
    entryPoint: '0.6',
    type: 'Modular Account v1',
    chainId: 1337,
    create: async (parameters) => {
      const multisig = await createMultisigModularAccountClient({ ...parameters, owners: [], threshold: 1n })
      return {
        ...multisig,
        sendUserOperation: ({ uo }) =>
          multisig.sendUserOperation({ uo, context: { userOpSignatureType: 'ACTUAL' } }),
      }
    },
  },
  {
    // Its default mode: the semi-modular account of Modular Account v2.0.0 (its owner in the proxy's bytecode).
    account: 'Modular Account v2',
    clientFunction: 'createModularAccountV2Client',
    entryPoint: '0.7',
    type: 'Modular Account v2',
    create: (parameters) => createModularAccountV2Client(parameters),
  },
]

/**
 * What a dApp gives account-kit for a non-Alchemy bundler and paymaster: the local chain, a split transport (bundler
 * methods to the bundler URL, ERC-7677 methods to the dApp's paymaster URL, the rest to the chain's RPC), a fresh
 * local owner key, and `erc7677Middleware` when sponsored.
 */
function clientParameters(setup: ClientTestSetup, sponsored: boolean) {
  const info = setup.service.info()
  const rpcUrl = info.rpcUrl!
  const chain = defineChain({
    id: info.chainId,
    name: 'Opstation local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const transport = split({
    overrides: [
      { methods: bundlerMethods, transport: http(info.bundlerUrl) },
      { methods: paymasterMethods, transport: http(setup.dapp.paymasterUrl) },
    ],
    fallback: http(rpcUrl),
  })
  return {
    chain,
    transport,
    signer: LocalAccountSigner.privateKeyToAccountSigner(generatePrivateKey()),
    // waitForUserOperationTransaction sleeps before each receipt lookup: 2 s, then 1.5 times longer (account-kit's
    // defaults, for a remote chain); here every 50 ms for up to 30 s, as the other clients' tests poll.
    opts: { txRetryIntervalMs: 50, txRetryMultiplier: 1, txMaxRetries: 600 },
    ...(sponsored ? erc7677Middleware() : {}),
  }
}

/** What the tests use of an account-kit client (each factory returns its own client type). */
type AccountKitClient = {
  account: { address: Address; getEntryPoint(): { address: Address } }
  sendUserOperation(args: { uo: { target: Address; data: Hex }[] }): Promise<{ hash: Hex }>
  waitForUserOperationTransaction(args: { hash: Hex }): Promise<Hex>
  getUserOperationReceipt(hash: Hex): Promise<UserOperationReceipt | null>
}

/** Sends the calls with account-kit's sendUserOperation, waits with waitForUserOperationTransaction, and returns the bundler's receipt. */
async function sendCalls(accountClient: AccountKitClient, calls: { to: Address; data: Hex }[]) {
  const { hash } = await accountClient.sendUserOperation({
    uo: calls.map(({ to, data }) => ({ target: to, data })),
  })
  const txHash = await accountClient.waitForUserOperationTransaction({ hash })
  const receipt = await accountClient.getUserOperationReceipt(hash)
  expect(receipt?.receipt.transactionHash).toBe(txHash)
  return { hash, receipt: receipt! }
}

/** Deploys the account with a sponsored mint, and checks it on chain. */
async function expectSponsoredMint(setup: ClientTestSetup, create: AccountKitCase['create']) {
  const accountClient = await create(clientParameters(setup, true))
  const address = accountClient.account.address
  const chain = publicClientOf(setup.service)
  expect(await chain.getCode({ address })).toBeUndefined()
  const alice = randomAddress()
  const { hash, receipt } = await sendCalls(accountClient, [setup.mint(alice, 7n)])
  expect(receipt.success).toBe(true)
  expect(receipt.sender.toLowerCase()).toBe(address.toLowerCase())
  expect(receipt.paymaster).not.toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  expect(await chain.getCode({ address })).toMatch(/^0x[0-9a-f]+$/)
  expect(await chain.getBalance({ address })).toBe(0n)
  return { accountClient, hash }
}

/** Deploys the account with a self-paid batch of two mints, and checks it on chain. */
async function expectSelfPaidMint(setup: ClientTestSetup, create: AccountKitCase['create']) {
  const accountClient = await create(clientParameters(setup, false))
  const address = accountClient.account.address
  await fundEth(setup.service.chain!, address, funding)
  const alice = randomAddress()
  const { receipt } = await sendCalls(accountClient, [setup.mint(alice, 3n), setup.mint(alice, 4n)])
  expect(receipt.success).toBe(true)
  expect(receipt.paymaster ?? zeroAddress).toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  const chain = publicClientOf(setup.service)
  expect(await chain.getCode({ address })).toMatch(/^0x[0-9a-f]+$/)
  // The EntryPoint took the prefund from the account and keeps what the operation did not use as its deposit.
  const balance = await chain.getBalance({ address })
  const deposit = await chain.readContract({
    address: accountClient.account.getEntryPoint().address,
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [address],
  })
  expect(balance + deposit).toBe(funding - BigInt(receipt.actualGasCost))
}

describe.each(accountKitCases)(
  "account-kit's $clientFunction, $account (EntryPoint $entryPoint)",
  ({ account, entryPoint, type, create, chainId }) => {
    const setup = setups[chainId ?? 31337]
    it('deploys the account and calls a contract, sponsored through erc7677Middleware, and Activity names it', async (context) => {
      proveClientCell(context, { client, account, entryPoint, payment: 'sponsored' })
      const { hash } = await expectSponsoredMint(setup, create)
      expect(await accountTypeOf(setup, hash)).toBe(type)
    })

    it('deploys the account with a batch of two calls, paying for its own gas', async (context) => {
      proveClientCell(context, { client, account, entryPoint, payment: 'self-paid' })
      await expectSelfPaidMint(setup, create)
    })
  },
)

/**
 * A 2-of-2 multisig as account-kit's docs run it: the first owner proposes the operation (its signature over upper
 * limits of the gas price and preVerificationGas), the second sends it with both signatures.
 */
describe("account-kit's createMultisigModularAccountClient, two owners, threshold 2", () => {
  it('deploys the account with an operation the first owner proposes and the second signs and sends, paying for its own gas', async () => {
    const setup = setups[1337]
    const [first, second] = [clientParameters(setup, false), clientParameters(setup, false)]
    const [firstAddress, secondAddress] = await Promise.all([
      first.signer.getAddress(),
      second.signer.getAddress(),
    ])
    const proposer = await createMultisigModularAccountClient({
      ...first,
      owners: [secondAddress],
      threshold: 2n,
    })
    const sender = await createMultisigModularAccountClient({
      ...second,
      owners: [firstAddress],
      threshold: 2n,
    })
    const address = proposer.account.address
    expect(sender.account.address).toBe(address)
    await fundEth(setup.service.chain!, address, funding)

    const alice = randomAddress()
    const mint = setup.mint(alice, 5n)
    const { request, aggregatedSignature, signatureObj } = await proposer.proposeUserOperation({
      uo: { target: mint.to, data: mint.data },
    })
    const { hash } = await sender.sendUserOperation({
      uo: request.callData,
      overrides: {
        callGasLimit: request.callGasLimit,
        verificationGasLimit: request.verificationGasLimit,
        preVerificationGas: request.preVerificationGas,
        maxFeePerGas: request.maxFeePerGas,
        maxPriorityFeePerGas: request.maxPriorityFeePerGas,
      },
      context: { aggregatedSignature, signatures: [signatureObj], userOpSignatureType: 'UPPERLIMIT' },
    })
    const txHash = await sender.waitForUserOperationTransaction({ hash })
    const receipt = await sender.getUserOperationReceipt(hash)
    expect(receipt?.receipt.transactionHash).toBe(txHash)
    expect(receipt?.success).toBe(true)
    expect(receipt?.sender.toLowerCase()).toBe(address.toLowerCase())
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(5n)
    expect(await accountTypeOf(setup, hash)).toBe('Modular Account v1')
  })
})
