import { http, parseAbi, parseEther, zeroAddress } from 'viem'
import { createBundlerClient, createPaymasterClient, toCoinbaseSmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../../src/main/service/chain'
import { publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { callConsole, tokenBalance } from '../paymaster/paymasterTestKit'
import { proveClientCell } from './clientMatrix'
import { withClientTestService } from './clientTestKit'

const setup = withClientTestService()

/** viem's own account implementations, as a dApp calls them (client and owner only: the default version). */
describe("viem's toCoinbaseSmartAccount (Coinbase Smart Wallet v1, EntryPoint 0.6)", () => {
  const createClient = async (sponsored: boolean) => {
    const client = publicClientOf(setup.service)
    const account = await toCoinbaseSmartAccount({
      client,
      owners: [privateKeyToAccount(generatePrivateKey())],
      version: '1',
    })
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

  it('deploys the wallet and calls a contract, sponsored through ERC-7677, and Activity names it', async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Coinbase Smart Wallet v1',
      entryPoint: '0.6',
      payment: 'sponsored',
    })
    const { client, account, bundlerClient } = await createClient(true)
    const alice = randomAddress()
    const hash = await bundlerClient.sendUserOperation({ calls: [setup.mint(alice, 7n)] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).not.toBe(zeroAddress)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
    expect(await client.getBalance({ address: account.address })).toBe(0n)
    const record = await callConsole(setup.service, `/console/api/user-operations/${hash}`)
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
    const hash = await bundlerClient.sendUserOperation({
      calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)],
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
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
