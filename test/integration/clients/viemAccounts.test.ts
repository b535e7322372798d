import { type Address, encodeFunctionData, http, parseAbi, parseEther, zeroAddress } from 'viem'
import { createBundlerClient, createPaymasterClient, toCoinbaseSmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundEth, testTokenAbi } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { callConsole, createDapp, registerToken, tokenBalance } from '../paymaster/paymasterTestKit'
import { proveClientCell } from './clientMatrix'

let service: TestService
let dapp: { apiKey: string; paymasterUrl: string }
let token: Address

beforeAll(async () => {
  service = await startTestService()
  dapp = await createDapp(service)
  token = await registerToken(service, dapp.apiKey, ['mint'])
}, 60_000)
afterAll(async () => {
  await service?.dispose()
})

const mint = (to: Address, amount: bigint) => ({
  to: token,
  data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
})

/** viem's own account implementations, as a dApp calls them (client and owner only: the default version). */
describe("viem's toCoinbaseSmartAccount (Coinbase Smart Wallet v1, EntryPoint 0.6)", () => {
  const createClient = async (sponsored: boolean) => {
    const client = publicClientOf(service)
    const account = await toCoinbaseSmartAccount({
      client,
      owners: [privateKeyToAccount(generatePrivateKey())],
      version: '1',
    })
    if (!sponsored) await fundEth(service.chain!, account.address, parseEther('1'))
    const bundlerClient = createBundlerClient({
      client,
      account,
      paymaster: sponsored ? createPaymasterClient({ transport: http(dapp.paymasterUrl) }) : undefined,
      transport: http(service.info().bundlerUrl),
      pollingInterval: 50,
    })
    return { client, account, bundlerClient }
  }

  it('deploys the wallet and calls a contract, sponsored through ERC-7677, and Activity names it', async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Coinbase Smart Wallet v1',
      entryPoint: '0.6',
      payment: 'sponsored',
    })
    const { client, account, bundlerClient } = await createClient(true)
    const alice = randomAddress()
    const hash = await bundlerClient.sendUserOperation({ calls: [mint(alice, 7n)] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).not.toBe(zeroAddress)
    expect(await tokenBalance(service, token, alice)).toBe(7n)
    expect(await client.getBalance({ address: account.address })).toBe(0n)
    const record = await callConsole(service, `/console/api/user-operations/${hash}`)
    expect(record.body.data.account).toBe('Coinbase Smart Wallet v1')
  })

  it('deploys the wallet with a batch of two calls, paying for its own gas', async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Coinbase Smart Wallet v1',
      entryPoint: '0.6',
      payment: 'self-paid',
    })
    const { client, account, bundlerClient } = await createClient(false)
    const alice = randomAddress()
    const hash = await bundlerClient.sendUserOperation({ calls: [mint(alice, 3n), mint(alice, 4n)] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(await tokenBalance(service, token, alice)).toBe(7n)
    const deposit = await client.readContract({
      address: receipt.entryPoint,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [account.address],
    })
    const balance = await client.getBalance({ address: account.address })
    expect(balance + deposit).toBe(parseEther('1') - receipt.actualGasCost)
  })
})
