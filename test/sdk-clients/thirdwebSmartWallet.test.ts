import {
  createThirdwebClient,
  defineChain,
  prepareTransaction,
  sendBatchTransaction,
  sendTransaction,
} from 'thirdweb'
import { privateKeyToAccount, smartWallet } from 'thirdweb/wallets'
import {
  DEFAULT_ACCOUNT_FACTORY_V0_6,
  DEFAULT_ACCOUNT_FACTORY_V0_7,
  ENTRYPOINT_ADDRESS_v0_6,
  ENTRYPOINT_ADDRESS_v0_7,
  type PaymasterResult,
} from 'thirdweb/wallets/smart'
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hash,
  http,
  isHex,
  type PublicClient,
  parseAbi,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundEth } from '../../src/main/service/chain'
import { randomAddress } from '../integration/bundler/bundlerTestKit'
import { proveClientCell } from '../integration/clients/clientMatrix'
import {
  accountTypeOf,
  type ClientTestSetup,
  withClientTestService,
} from '../integration/clients/clientTestKit'
import { tokenBalance } from '../integration/paymaster/paymasterTestKit'

const setup = withClientTestService()

/** Every request of this file (thirdweb's and the checks'): its host, and its JSON-RPC method if any. */
const requests: { host: string; method?: string }[] = []
const realFetch = globalThis.fetch
beforeAll(() => {
  globalThis.fetch = (input, init) => {
    const host = new URL(input instanceof Request ? input.url : input).hostname
    const method = typeof init?.body === 'string' ? /"method":"(\w+)"/.exec(init.body)?.[1] : undefined
    requests.push({ host, method })
    return realFetch(input, init)
  }
})
afterAll(() => {
  globalThis.fetch = realFetch
})

type EntryPointCase = { entryPoint: '0.6' | '0.7'; address: Address; factory: Address }

const entryPoints: EntryPointCase[] = [
  { entryPoint: '0.6', address: ENTRYPOINT_ADDRESS_v0_6, factory: getAddress(DEFAULT_ACCOUNT_FACTORY_V0_6) },
  { entryPoint: '0.7', address: ENTRYPOINT_ADDRESS_v0_7, factory: getAddress(DEFAULT_ACCOUNT_FACTORY_V0_7) },
]

/**
 * thirdweb's paymaster hook, sending what thirdweb sends to its own hosted paymaster (`pm_sponsorUserOperation` with
 * the operation's quantities as hex and the EntryPoint) to the dApp's paymaster URL instead.
 */
function sponsorThroughPaymasterUrl(paymasterUrl: string, entryPoint: Address) {
  return async (userOp: object): Promise<PaymasterResult> => {
    const op = Object.fromEntries(
      Object.entries(userOp)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, typeof value === 'bigint' ? toHex(value) : value]),
    )
    const response = await fetch(paymasterUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'pm_sponsorUserOperation',
        params: [op, entryPoint],
      }),
    })
    const { result, error } = await response.json()
    if (error) throw new Error(`pm_sponsorUserOperation: ${JSON.stringify(error)}`)
    const quantity = (value: unknown) => (isHex(value) ? BigInt(value) : undefined)
    return {
      ...result,
      callGasLimit: quantity(result.callGasLimit),
      verificationGasLimit: quantity(result.verificationGasLimit),
      preVerificationGas: quantity(result.preVerificationGas),
      paymasterVerificationGasLimit: quantity(result.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: quantity(result.paymasterPostOpGasLimit),
    }
  }
}

/**
 * A fresh thirdweb smart wallet, as a dApp sets it up against its own services: the local chain with the node's RPC
 * URL, the service's bundler URL, the EntryPoint (its default factory for that EntryPoint), and when sponsored the
 * paymaster hook at the dApp's paymaster URL. Self-paid wallets get 1 ETH first.
 */
async function connectSmartWallet(
  setup: ClientTestSetup,
  entryPoint: EntryPointCase,
  sponsored: boolean,
  bundlerUrl = setup.service.info().bundlerUrl,
) {
  // The chain RPC the service serves (anvil itself listens on a port browsers, and thirdweb's fetch, refuse).
  const rpcUrl = setup.service.info().rpcUrl as string
  const chain = defineChain({ id: 31337, rpc: rpcUrl })
  const client = createThirdwebClient({ clientId: 'opstation-test' })
  const wallet = smartWallet({
    chain,
    sponsorGas: sponsored,
    overrides: {
      bundlerUrl,
      entrypointAddress: entryPoint.address,
      paymaster: sponsored
        ? sponsorThroughPaymasterUrl(setup.dapp.paymasterUrl, entryPoint.address)
        : undefined,
    },
  })
  const account = await wallet.connect({
    client,
    personalAccount: privateKeyToAccount({ client, privateKey: generatePrivateKey() }),
  })
  if (!sponsored) await fundEth(setup.service.chain!, account.address as Address, parseEther('1'))
  const publicClient = createPublicClient({ transport: http(rpcUrl) })
  const call = (to: Address, amount: bigint) =>
    prepareTransaction({ ...setup.mint(to, amount), chain, client })
  return { account, address: account.address as Address, publicClient, call }
}

type SmartWalletSetup = Awaited<ReturnType<typeof connectSmartWallet>>

const entryPointEvents = parseAbi([
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)',
])

/**
 * The UserOperationEvent of the account in the bundle transaction thirdweb returned, with the factory that deployed
 * the account in it (AccountDeployed), if any.
 */
async function readUserOperationEvent(client: PublicClient, transactionHash: Hash, sender: Address) {
  const receipt = await client.getTransactionReceipt({ hash: transactionHash })
  const events = parseEventLogs({ abi: entryPointEvents, logs: receipt.logs })
  const operation = events.find((e) => e.eventName === 'UserOperationEvent' && e.args.sender === sender)
  const deployed = events.find((e) => e.eventName === 'AccountDeployed' && e.args.sender === sender)
  if (operation?.eventName !== 'UserOperationEvent')
    throw new Error(`no UserOperationEvent of ${sender} in ${transactionHash}`)
  const factory = deployed?.eventName === 'AccountDeployed' ? deployed.args.factory : undefined
  return { ...operation.args, entryPoint: operation.address, factory }
}

describe.each(entryPoints)('thirdweb 5 smartWallet (EntryPoint $entryPoint)', (entryPoint) => {
  it("deploys the account from thirdweb's default factory and calls a contract, sponsored through the paymaster hook at the dApp's paymaster URL", async (context) => {
    proveClientCell(context, {
      client: 'thirdweb 5',
      account: 'thirdweb',
      entryPoint: entryPoint.entryPoint,
      payment: 'sponsored',
    })
    const { account, address, publicClient, call } = await connectSmartWallet(setup, entryPoint, true)
    const alice = randomAddress()
    const { transactionHash } = await sendTransaction({ account, transaction: call(alice, 7n) })
    const event = await readUserOperationEvent(publicClient, transactionHash, address)
    expect(event.success).toBe(true)
    expect(event.paymaster).not.toBe(zeroAddress)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
    expect(await publicClient.getCode({ address })).toMatch(/^0x[0-9a-f]+$/)
    expect(await publicClient.getBalance({ address })).toBe(0n)
    expect(event.factory).toBe(entryPoint.factory)
    expect(await accountTypeOf(setup, event.userOpHash)).toBe('thirdweb')
  })

  it("deploys the account from thirdweb's default factory with a batch of two calls, paying for its own gas", async (context) => {
    proveClientCell(context, {
      client: 'thirdweb 5',
      account: 'thirdweb',
      entryPoint: entryPoint.entryPoint,
      payment: 'self-paid',
    })
    const event = await expectSelfPaidBatch(await connectSmartWallet(setup, entryPoint, false))
    expect(event.factory).toBe(entryPoint.factory)
  })
})

describe('thirdweb 5 smartWallet with a bundler URL at localhost', () => {
  it('deploys the account paying for its own gas, with the fees it asks the bundler for with thirdweb_getUserOperationGasPrice (as it asks its own bundler in development)', async () => {
    // thirdweb takes localhost for its own hosts when NODE_ENV is development (a dApp's dev server) or test (vitest).
    expect(process.env.NODE_ENV).toBe('test')
    const bundlerUrl = setup.service.info().bundlerUrl.replace('127.0.0.1', 'localhost')
    await expectSelfPaidBatch(await connectSmartWallet(setup, entryPoints[1]!, false, bundlerUrl))
    expect(requests).toContainEqual({ host: 'localhost', method: 'thirdweb_getUserOperationGasPrice' })
  })
})

describe('thirdweb 5 smartWallet offline', () => {
  it('needed no hosted thirdweb service in the tests above: besides the local service and chain, it only posts to its analytics (fire-and-forget, failures ignored)', () => {
    const allowed = new Set(['127.0.0.1', 'localhost', 'c.thirdweb.com'])
    expect(requests.filter((r) => !allowed.has(r.host))).toEqual([])
    expect(requests).not.toContainEqual({ host: '127.0.0.1', method: 'thirdweb_getUserOperationGasPrice' })
  })
})

/** Deploys the account with a self-paid batch of two calls, and checks it on chain. */
async function expectSelfPaidBatch({ account, address, publicClient, call }: SmartWalletSetup) {
  const alice = randomAddress()
  const { transactionHash } = await sendBatchTransaction({
    account,
    transactions: [call(alice, 3n), call(alice, 4n)],
  })
  const event = await readUserOperationEvent(publicClient, transactionHash, address)
  expect(event.success).toBe(true)
  expect(event.paymaster).toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  // The EntryPoint took the prefund from the account and keeps what the operation did not use as its deposit.
  const balance = await publicClient.getBalance({ address })
  const deposit = await publicClient.readContract({
    address: event.entryPoint,
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [address],
  })
  expect(balance + deposit).toBe(parseEther('1') - event.actualGasCost)
  return { ...event, transactionHash }
}
