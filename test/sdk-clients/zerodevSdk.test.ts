import { signerToEcdsaValidator } from '@zerodev/ecdsa-validator'
import { createKernelAccount, createKernelAccountClient, createZeroDevPaymasterClient } from '@zerodev/sdk'
import { getEntryPoint, KERNEL_V2_4, KERNEL_V3_1, KERNEL_V3_3 } from '@zerodev/sdk/constants'
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  parseEther,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../src/main/service/chain'
import { getZooAddress } from '../../src/main/service/chain/accountZoo/zooContracts'
import { callBundler, randomAddress } from '../integration/bundler/bundlerTestKit'
import { proveClientCell } from '../integration/clients/clientMatrix'
import {
  accountTypeOf,
  type ClientTestSetup,
  expectDelegatedByBundle,
  expectPrefundSettled,
  withClientTestService,
} from '../integration/clients/clientTestKit'
import { tokenBalance } from '../integration/paymaster/paymasterTestKit'

const setup = withClientTestService()

const CLIENT = '@zerodev/sdk 5'

type KernelCase = {
  account: string
  entryPoint: '0.6' | '0.7'
  kernelVersion: typeof KERNEL_V2_4 | typeof KERNEL_V3_1 | typeof KERNEL_V3_3
  /** How Activity names the account's type. */
  type: string
}

const kernels: KernelCase[] = [
  { account: 'Kernel 0.3.1', entryPoint: '0.7', kernelVersion: KERNEL_V3_1, type: 'Kernel v3.1' },
  { account: 'Kernel 0.3.3', entryPoint: '0.7', kernelVersion: KERNEL_V3_3, type: 'Kernel v3.3' },
  { account: 'Kernel 0.2.4', entryPoint: '0.6', kernelVersion: KERNEL_V2_4, type: 'Kernel v2.4' },
]

/** An http transport that records the JSON-RPC methods the client sends through it. */
function recordingHttp(url: string, methods: string[]) {
  return http(url, {
    onFetchRequest: (_request, init) => {
      const body = JSON.parse(String(init.body)) as { method: string } | { method: string }[]
      for (const call of [body].flat()) methods.push(call.method)
    },
  })
}

/**
 * A kernel client on the service, built as ZeroDev's docs tell a dApp to (createKernelAccountClient with the bundler
 * URL), for the account `createAccount` builds on the service's chain. Sponsored, the client's paymaster is ZeroDev's
 * paymaster client on the dApp's paymaster URL, handed over whole so that viem asks it through ERC-7677: the docs'
 * `getPaymasterData: paymasterClient.sponsorUserOperation` speaks ZeroDev's hosted `zd_sponsorUserOperation`, which
 * the service does not serve. Self-paid, the account is funded with 1 ETH.
 */
async function createKernelClient(
  setup: ClientTestSetup,
  sponsored: boolean,
  createAccount: (publicClient: PublicClient) => ReturnType<typeof createKernelAccount>,
) {
  const { chain: chainNode, info } = setup.service
  // The service's chain (its JSON-RPC URL for dApps), defined with the viem the SDK uses: the app's viem types do
  // not mix with it.
  const rpcUrl = info().rpcUrl!
  const { id, name, nativeCurrency } = chainNode!.publicClient.chain!
  const chain = defineChain({ id, name, nativeCurrency, rpcUrls: { default: { http: [rpcUrl] } } })
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) })
  const account = await createAccount(publicClient)
  const bundlerMethods: string[] = []
  const paymasterMethods: string[] = []
  const kernelClient = createKernelAccountClient({
    account,
    chain,
    client: publicClient,
    bundlerTransport: recordingHttp(info().bundlerUrl, bundlerMethods),
    paymaster: sponsored
      ? createZeroDevPaymasterClient({
          chain,
          transport: recordingHttp(setup.dapp.paymasterUrl, paymasterMethods),
        })
      : undefined,
  })
  if (!sponsored) await fundEth(chainNode!, account.address, parseEther('1'))
  return { publicClient, account, kernelClient, bundlerMethods, paymasterMethods }
}

/** A fresh Kernel account with an ECDSA owner (signerToEcdsaValidator, createKernelAccount) and its kernel client. */
function createEcdsaKernelClient(setup: ClientTestSetup, kernel: KernelCase, sponsored: boolean) {
  return createKernelClient(setup, sponsored, async (publicClient) => {
    const entryPoint = getEntryPoint(kernel.entryPoint)
    const { kernelVersion } = kernel
    const signer = privateKeyToAccount(generatePrivateKey())
    const ecdsaValidator = await signerToEcdsaValidator(publicClient, { signer, entryPoint, kernelVersion })
    return createKernelAccount(publicClient, { plugins: { sudo: ecdsaValidator }, entryPoint, kernelVersion })
  })
}

/** Deploys the account with a sponsored call through the kernel client, and checks it on chain. */
async function expectKernelSponsoredMint(setup: ClientTestSetup, kernel: KernelCase) {
  const { publicClient, account, kernelClient, bundlerMethods, paymasterMethods } =
    await createEcdsaKernelClient(setup, kernel, true)
  const alice = randomAddress()
  const hash = await kernelClient.sendUserOperation({ calls: [setup.mint(alice, 7n)] })
  const receipt = await kernelClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  expect(receipt.success).toBe(true)
  expect(receipt.sender).toBe(account.address)
  expect(receipt.paymaster).not.toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  expect(await publicClient.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
  expect(await publicClient.getBalance({ address: account.address })).toBe(0n)
  // The kernel client's default fee path, and the ERC-7677 pair from ZeroDev's paymaster client.
  expect(bundlerMethods).toContain('zd_getUserOperationGasPrice')
  expect(paymasterMethods).toEqual(['pm_getPaymasterStubData', 'pm_getPaymasterData'])
  return { hash }
}

/** Deploys the account with a self-paid batch of two calls through the kernel client, and checks it on chain. */
async function expectKernelSelfPaidMint(setup: ClientTestSetup, kernel: KernelCase) {
  const { account, kernelClient, bundlerMethods } = await createEcdsaKernelClient(setup, kernel, false)
  const alice = randomAddress()
  const hash = await kernelClient.sendUserOperation({ calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)] })
  const receipt = await kernelClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  expect(receipt.success).toBe(true)
  expect(receipt.sender).toBe(account.address)
  expect(receipt.paymaster).toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  expect(bundlerMethods).toContain('zd_getUserOperationGasPrice')
  await expectPrefundSettled(setup.service, receipt)
}

/**
 * An EOA made a Kernel v3.3 account by EIP-7702 on EntryPoint v0.7, as ZeroDev's docs build it: createKernelAccount
 * with `eip7702Account` (no validator plugin, no factory: the EOA signs for itself) and its kernel client, which signs
 * the authorization to Kernel v3.3's implementation while the EOA has no code and sends it as the eip7702Auth.
 */
function createKernel7702Client(
  setup: ClientTestSetup,
  sponsored: boolean,
  owner = privateKeyToAccount(generatePrivateKey()),
) {
  return createKernelClient(setup, sponsored, (publicClient) =>
    createKernelAccount(publicClient, {
      eip7702Account: owner,
      entryPoint: getEntryPoint('0.7'),
      kernelVersion: KERNEL_V3_3,
    }),
  )
}

describe('@zerodev/sdk Kernel 0.3.3 as an EIP-7702 account (EntryPoint 0.7)', () => {
  const cell = { client: CLIENT, account: 'Kernel 0.3.3 (EIP-7702)', entryPoint: '0.7' } as const

  it("delegates the EOA in a type-4 bundle and calls a contract, sponsored through ERC-7677 by ZeroDev's paymaster client; the next operation goes without an authorization; Activity names it Kernel v3.3 (EIP-7702)", async (context) => {
    proveClientCell(context, { ...cell, payment: 'sponsored' })
    const { publicClient, account, kernelClient, paymasterMethods } = await createKernel7702Client(
      setup,
      true,
    )
    const alice = randomAddress()
    const hash = await kernelClient.sendUserOperation({ calls: [setup.mint(alice, 7n)] })
    const receipt = await kernelClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).not.toBe(zeroAddress)
    await expectDelegatedByBundle(setup.service, receipt, account.address, getZooAddress('kernelV3_3'))
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
    expect(await publicClient.getBalance({ address: account.address })).toBe(0n)
    expect(paymasterMethods).toEqual(['pm_getPaymasterStubData', 'pm_getPaymasterData'])
    expect(await accountTypeOf(setup, hash)).toBe('Kernel v3.3 (EIP-7702)')

    // Delegated already: the kernel client signs no authorization, and the bundle is a plain transaction.
    const second = await kernelClient.sendUserOperation({ calls: [setup.mint(alice, 1n)] })
    const secondReceipt = await kernelClient.waitForUserOperationReceipt({ hash: second, timeout: 30_000 })
    expect(secondReceipt.success).toBe(true)
    expect((await publicClient.getTransaction({ hash: secondReceipt.receipt.transactionHash })).type).toBe(
      'eip1559',
    )
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(8n)
  })

  it('delegates the EOA in a type-4 bundle with a batch of two calls, paying for its own gas', async (context) => {
    proveClientCell(context, { ...cell, payment: 'self-paid' })
    const { account, kernelClient } = await createKernel7702Client(setup, false)
    const alice = randomAddress()
    const hash = await kernelClient.sendUserOperation({
      calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)],
    })
    const receipt = await kernelClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(zeroAddress)
    await expectDelegatedByBundle(setup.service, receipt, account.address, getZooAddress('kernelV3_3'))
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
    await expectPrefundSettled(setup.service, receipt)
  })

  it('drops the accepted operation when its authorization no longer matches at bundling (the EOA used its nonce first), with the reason', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const { publicClient, kernelClient } = await createKernel7702Client(setup, false, owner)
    expect((await callBundler(setup.service, 'debug_bundler_setBundlingMode', ['manual'])).body.result).toBe(
      'ok',
    )
    try {
      const hash = await kernelClient.sendUserOperation({ calls: [setup.mint(randomAddress(), 1n)] })
      // The EOA sends a transaction of its own: the authorization's nonce is used before the bundle goes out.
      const wallet = createWalletClient({
        account: owner,
        chain: publicClient.chain,
        transport: http(setup.service.info().rpcUrl!),
      })
      await publicClient.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to: randomAddress(), value: 1n }),
      })
      await callBundler(setup.service, 'debug_bundler_sendBundleNow', [])
      const status = await callBundler(setup.service, 'biconomy_getUserOperationStatus', [hash])
      expect(status.body.result.state).toBe('DROPPED_FROM_BUNDLER_MEMPOOL')
      expect(status.body.result.message).toMatch(
        /EIP-7702 authorization no longer matches: it is for account nonce 0, the account's nonce is 1/,
      )
      expect(await publicClient.getCode({ address: owner.address })).toBeUndefined()
    } finally {
      await callBundler(setup.service, 'debug_bundler_setBundlingMode', ['auto'])
    }
  })
})

describe.each(kernels)('@zerodev/sdk $account (EntryPoint $entryPoint)', (kernel) => {
  const { account, entryPoint, type } = kernel

  it(`deploys the account and calls a contract, priced by zd_getUserOperationGasPrice and sponsored through ERC-7677 by ZeroDev's paymaster client; Activity names it ${type}`, async (context) => {
    proveClientCell(context, { client: CLIENT, account, entryPoint, payment: 'sponsored' })
    const { hash } = await expectKernelSponsoredMint(setup, kernel)
    expect(await accountTypeOf(setup, hash)).toBe(type)
  })

  it('deploys the account with a batch of two calls, priced by zd_getUserOperationGasPrice, paying for its own gas', async (context) => {
    proveClientCell(context, { client: CLIENT, account, entryPoint, payment: 'self-paid' })
    await expectKernelSelfPaidMint(setup, kernel)
  })
})
