import { erc7677Middleware, LocalAccountSigner, split } from '@aa-sdk/core'
import { createLightAccountClient } from '@account-kit/smart-contracts'
import { type Address, defineChain, type Hex, http, parseAbi, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../src/main/service/chain'
import { publicClientOf, randomAddress } from '../integration/bundler/bundlerTestKit'
import { proveClientCell } from '../integration/clients/clientMatrix'
import { accountTypeOf, withClientTestService } from '../integration/clients/clientTestKit'
import { tokenBalance } from '../integration/paymaster/paymasterTestKit'

const setup = withClientTestService()

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

type LightAccountCase = {
  account: 'LightAccount 1.1.0' | 'LightAccount 2.0.0'
  version: 'v1.1.0' | 'v2.0.0'
  entryPoint: '0.6' | '0.7'
  /** How Activity names the account's type (as for permissionless' LightAccount). */
  type: string
}

const lightAccounts: LightAccountCase[] = [
  { account: 'LightAccount 1.1.0', version: 'v1.1.0', entryPoint: '0.6', type: 'LightAccount v1.1.0' },
  { account: 'LightAccount 2.0.0', version: 'v2.0.0', entryPoint: '0.7', type: 'LightAccount v2.0.0' },
]

/**
 * A LightAccount client as a dApp builds one with a non-Alchemy bundler and paymaster: the local chain, a split
 * transport (bundler methods to the bundler URL, ERC-7677 methods to the dApp's paymaster URL, the rest to the
 * chain's RPC), a fresh local owner key, and `erc7677Middleware` when sponsored.
 */
function createLightClient(version: LightAccountCase['version'], sponsored: boolean) {
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
  return createLightAccountClient({
    chain,
    transport,
    signer: LocalAccountSigner.privateKeyToAccountSigner(generatePrivateKey()),
    version,
    ...(sponsored ? erc7677Middleware() : {}),
  })
}

type LightClient = Awaited<ReturnType<typeof createLightClient>>

/** Sends the calls with account-kit's sendUserOperation, waits with waitForUserOperationTransaction, and returns the bundler's receipt. */
async function sendCalls(accountClient: LightClient, calls: { to: Address; data: Hex }[]) {
  const { hash } = await accountClient.sendUserOperation({
    uo: calls.map(({ to, data }) => ({ target: to, data })),
  })
  const txHash = await accountClient.waitForUserOperationTransaction({ hash })
  const receipt = await accountClient.getUserOperationReceipt(hash)
  expect(receipt?.receipt.transactionHash).toBe(txHash)
  return { hash, receipt: receipt! }
}

/** Deploys the account with a sponsored mint, and checks it on chain. */
async function expectSponsoredLightMint(version: LightAccountCase['version']) {
  const accountClient = await createLightClient(version, true)
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
async function expectSelfPaidLightMint(version: LightAccountCase['version']) {
  const accountClient = await createLightClient(version, false)
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

describe.each(lightAccounts)(
  "account-kit's createLightAccountClient, $account (EntryPoint $entryPoint)",
  ({ account, version, entryPoint, type }) => {
    it('deploys the account and calls a contract, sponsored through erc7677Middleware, and Activity names it', async (context) => {
      proveClientCell(context, { client, account, entryPoint, payment: 'sponsored' })
      const { hash } = await expectSponsoredLightMint(version)
      expect(await accountTypeOf(setup, hash)).toBe(type)
    })

    it('deploys the account with a batch of two calls, paying for its own gas', async (context) => {
      proveClientCell(context, { client, account, entryPoint, payment: 'self-paid' })
      await expectSelfPaidLightMint(version)
    })
  },
)
