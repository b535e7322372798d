import { signerToEcdsaValidator } from '@zerodev/ecdsa-validator'
import { createKernelAccount, createKernelAccountClient, createZeroDevPaymasterClient } from '@zerodev/sdk'
import { getEntryPoint, KERNEL_V2_4, KERNEL_V3_1, KERNEL_V3_3 } from '@zerodev/sdk/constants'
import { createPublicClient, defineChain, http, parseAbi, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
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
 * A fresh Kernel account with an ECDSA owner and its kernel client, built as ZeroDev's docs tell a dApp to
 * (signerToEcdsaValidator, createKernelAccount, createKernelAccountClient with the bundler URL). Sponsored, the
 * client's paymaster is ZeroDev's paymaster client on the dApp's paymaster URL, handed over whole so that viem
 * asks it through ERC-7677: the docs' `getPaymasterData: paymasterClient.sponsorUserOperation` speaks ZeroDev's
 * hosted `zd_sponsorUserOperation`, which the service does not serve.
 */
async function createKernelClient(setup: ClientTestSetup, kernel: KernelCase, sponsored: boolean) {
  const { chain: chainNode, info } = setup.service
  // The service's chain (its JSON-RPC URL for dApps), defined with the viem the SDK uses: the app's viem types do
  // not mix with it.
  const rpcUrl = info().rpcUrl!
  const { id, name, nativeCurrency } = chainNode!.publicClient.chain!
  const chain = defineChain({ id, name, nativeCurrency, rpcUrls: { default: { http: [rpcUrl] } } })
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) })
  const entryPoint = getEntryPoint(kernel.entryPoint)
  const { kernelVersion } = kernel
  const signer = privateKeyToAccount(generatePrivateKey())
  const ecdsaValidator = await signerToEcdsaValidator(publicClient, { signer, entryPoint, kernelVersion })
  const account = await createKernelAccount(publicClient, {
    plugins: { sudo: ecdsaValidator },
    entryPoint,
    kernelVersion,
  })
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

/** Deploys the account with a sponsored call through the kernel client, and checks it on chain. */
async function expectKernelSponsoredMint(setup: ClientTestSetup, kernel: KernelCase) {
  const { publicClient, account, kernelClient, bundlerMethods, paymasterMethods } = await createKernelClient(
    setup,
    kernel,
    true,
  )
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
  const { publicClient, account, kernelClient, bundlerMethods } = await createKernelClient(
    setup,
    kernel,
    false,
  )
  const alice = randomAddress()
  const hash = await kernelClient.sendUserOperation({ calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)] })
  const receipt = await kernelClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  expect(receipt.success).toBe(true)
  expect(receipt.sender).toBe(account.address)
  expect(receipt.paymaster).toBe(zeroAddress)
  expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
  expect(bundlerMethods).toContain('zd_getUserOperationGasPrice')
  // The EntryPoint took the prefund from the account and keeps what the operation did not use as its deposit.
  const balance = await publicClient.getBalance({ address: account.address })
  const deposit = await publicClient.readContract({
    address: receipt.entryPoint,
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [account.address],
  })
  expect(balance + deposit).toBe(parseEther('1') - receipt.actualGasCost)
}

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
