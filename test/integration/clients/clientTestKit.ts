import {
  type Address,
  encodeFunctionData,
  type Hash,
  http,
  type LocalAccount,
  type PublicClient,
  parseAbi,
  parseEther,
  zeroAddress,
} from 'viem'
import { createBundlerClient, createPaymasterClient, type SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect } from 'vitest'
import { fundEth, testTokenAbi } from '../../../src/main/service/chain'
import type { ServiceConfigInput } from '../../../src/main/service/config'
import { getSharedTestService } from '../../helpers/sharedTestService'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { callConsole, createDapp, registerToken, tokenBalance } from '../paymaster/paymasterTestKit'

/** Builds an account with a client library, as a dApp would (only the client and the owner are given). */
export type CreateAccount = (client: PublicClient, owner: LocalAccount) => Promise<SmartAccount>

export type ClientTestSetup = {
  service: TestService
  dapp: { apiKey: string; paymasterUrl: string }
  /** The test token, registered with the dApp with `mint` whitelisted. */
  token: Address
  /** A call of the test token's open `mint`. */
  mint: (to: Address, amount: bigint) => { to: Address; data: `0x${string}` }
}

/**
 * A service for the file's client tests with a dApp of the file's own whose whitelist sponsors the test token's
 * `mint`: the worker's shared service (getSharedTestService), or with `overrides` one of the file's own (started
 * before its tests, disposed after). Read the fields inside tests, once the setup has run.
 */
export function withClientTestService(overrides: Partial<ServiceConfigInput> = {}): ClientTestSetup {
  const setup = {} as ClientTestSetup
  const own = Object.keys(overrides).length > 0
  beforeAll(async () => {
    setup.service = own ? await startTestService(overrides) : await getSharedTestService()
    setup.dapp = await createDapp(setup.service)
    setup.token = await registerToken(setup.service, setup.dapp.apiKey, ['mint'])
    setup.mint = (to, amount) => ({
      to: setup.token,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
    })
  }, 60_000)
  afterAll(async () => {
    if (own) await setup.service?.dispose()
  })
  return setup
}

/** A fresh account from `create`, with viem's bundler client (and the dApp's ERC-7677 paymaster when sponsored). */
export async function createAccountClient(setup: ClientTestSetup, create: CreateAccount, sponsored: boolean) {
  const client = publicClientOf(setup.service)
  const account = await create(client, privateKeyToAccount(generatePrivateKey()))
  if (!sponsored) await fundEth(setup.service.chain!, account.address, parseEther('1'))
  const bundlerClient = createBundlerClient({
    client,
    account,
    paymaster: sponsored ? createPaymasterClient({ transport: http(setup.dapp.paymasterUrl) }) : undefined,
    transport: http(setup.service.info().bundlerUrl),
    pollingInterval: 50,
  })
  return { client, account, bundlerClient }
}

/** The account type Activity shows for an operation (named from its factory, or read from the chain). */
export async function accountTypeOf(
  setup: ClientTestSetup,
  userOpHash: string,
): Promise<string | null | undefined> {
  for (let i = 0; i < 20; i++) {
    const res = await callConsole(setup.service, `/console/api/user-operations/${userOpHash}`)
    if (res.body.data?.account) return res.body.data.account
    await new Promise((r) => setTimeout(r, 50))
  }
  return null
}

/** Deploys the account with a sponsored call, and checks it on chain. */
export async function expectSponsoredMint(setup: ClientTestSetup, create: CreateAccount) {
  const { client, account, bundlerClient } = await createAccountClient(setup, create, true)
  const alice = randomAddress()
  const hash = await bundlerClient.sendUserOperation({ calls: [setup.mint(alice, 7n)] })
  const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  expect(receipt.success).toBe(true)
  expect(receipt.sender).toBe(account.address)
  expect(receipt.paymaster).not.toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
  expect(await client.getBalance({ address: account.address })).toBe(0n)
  return { bundlerClient, hash }
}

/** Deploys the account with a self-paid batch of two calls, and checks it on chain. */
export async function expectSelfPaidMint(setup: ClientTestSetup, create: CreateAccount) {
  const { bundlerClient } = await createAccountClient(setup, create, false)
  const alice = randomAddress()
  const hash = await bundlerClient.sendUserOperation({
    calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)],
  })
  const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  expect(receipt.success).toBe(true)
  expect(receipt.paymaster).toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  await expectPrefundSettled(setup.service, receipt)
}

/**
 * An EIP-7702 account's first operation: the EOA is its sender, the bundle went as a type-4 transaction to the
 * EntryPoint carrying the EOA's authorization, and the EOA now delegates to `implementation`.
 */
export async function expectDelegatedByBundle(
  service: TestService,
  receipt: { entryPoint: Address; sender: Address; receipt: { transactionHash: Hash } },
  owner: Address,
  implementation: Address,
) {
  const client = publicClientOf(service)
  expect(receipt.sender).toBe(owner)
  expect(await client.getCode({ address: owner })).toBe(`0xef0100${implementation.slice(2).toLowerCase()}`)
  const bundle = await client.getTransaction({ hash: receipt.receipt.transactionHash })
  expect(bundle.type).toBe('eip7702')
  expect(bundle.to?.toLowerCase()).toBe(receipt.entryPoint.toLowerCase())
  expect(bundle.authorizationList?.map((a) => a.address.toLowerCase())).toEqual([
    implementation.toLowerCase(),
  ])
}

/**
 * A self-paid operation's account after it: the EntryPoint took the prefund from the account (funded with 1 ETH) and
 * keeps what the operation did not use as the account's deposit.
 */
export async function expectPrefundSettled(
  service: TestService,
  receipt: { entryPoint: Address; sender: Address; actualGasCost: bigint },
) {
  const client = publicClientOf(service)
  const balance = await client.getBalance({ address: receipt.sender })
  const deposit = await client.readContract({
    address: receipt.entryPoint,
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [receipt.sender],
  })
  expect(balance + deposit).toBe(parseEther('1') - receipt.actualGasCost)
}

/** Runs `run` with the service's safety rules off (`--unsafe`, the console's Settings), then turns them back on. */
export async function inUnsafeMode<T>(setup: { service: TestService }, run: () => Promise<T>): Promise<T> {
  const setUnsafe = async (unsafe: boolean) =>
    expect(
      (await callConsole(setup.service, '/console/api/settings', { method: 'PATCH', body: { unsafe } }))
        .status,
    ).toBe(200)
  await setUnsafe(true)
  try {
    return await run()
  } finally {
    await setUnsafe(false)
  }
}

/** Why ERC-7562 forbids an account's first operation: the rule, and what in the account breaks it. */
export type SafeModeRefusal = { rule: string; why: string }

/**
 * Nexus (1.0 and 1.2, with its K1 validator): the validator's onInstall checks with EXTCODESIZE that the owner is not a
 * contract, inside the factory's deployment, and an EOA owner has no code: ERC-7562 forbids EXTCODE* on an address
 * without code other than the sender [OP-041], so a bundler in safe mode refuses the deployment (eth-infinitism's
 * bundler and the suite's scenarios too); with the rules off it works.
 */
export const NEXUS_SAFE_MODE_REFUSAL: SafeModeRefusal = {
  rule: 'OP-041',
  why: 'its K1 validator checks with EXTCODESIZE, inside the deployment, that the owner has no code',
}

/** `send` (an account's first operation, by any client) is refused, naming the rule, as an ERC-7562 bundler must. */
export async function expectSafeModeRefusal(
  send: () => Promise<unknown>,
  refusal: SafeModeRefusal,
): Promise<void> {
  const error = await send()
    .then(() => undefined)
    .catch((e: unknown) => e as { details?: string })
  expect(error, 'refused in safe mode').toBeDefined()
  expect(String(error?.details)).toContain(`[${refusal.rule}]`)
}

/** Safe mode (the default) refuses the account's first operation through viem's bundler client. */
export async function expectRefusedInSafeMode(
  setup: ClientTestSetup,
  create: CreateAccount,
  refusal: SafeModeRefusal,
): Promise<void> {
  const { bundlerClient } = await createAccountClient(setup, create, true)
  await expectSafeModeRefusal(
    () => bundlerClient.sendUserOperation({ calls: [setup.mint(randomAddress(), 1n)] }),
    refusal,
  )
}
