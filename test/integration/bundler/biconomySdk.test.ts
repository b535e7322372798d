import { createSmartAccountClient } from '@biconomy/account'
import { createWalletClient, encodeFunctionData, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { fundEth, testTokenAbi } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { proveClientCell } from '../clients/clientMatrix'
import { callBundler, publicClientOf, randomAddress } from './bundlerTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

async function createBiconomyAccount() {
  const chain = service.chain!
  const owner = privateKeyToAccount(generatePrivateKey())
  const signer = createWalletClient({
    account: owner,
    chain: chain.publicClient.chain,
    transport: http(service.info().rpcUrl!),
  })
  const smartAccount = await createSmartAccountClient({
    signer,
    chainId: chain.chainId,
    rpcUrl: service.info().rpcUrl!,
    bundlerUrl: service.info().bundlerUrl,
  })
  const address = await smartAccount.getAccountAddress()
  await fundEth(chain, address, 10n ** 18n)
  return { smartAccount, address }
}

describe('Biconomy SDK v4 (Smart Account v2) against the bundler URL', () => {
  it('deploys the account and sends a call; wait() resolves with the receipt in spec section 2.4 shapes', async (context) => {
    proveClientCell(context, {
      client: 'Biconomy SDK v4',
      account: 'Biconomy Smart Account v2',
      entryPoint: '0.6',
      payment: 'self-paid',
    })
    const { smartAccount, address } = await createBiconomyAccount()
    const to = randomAddress()
    const response = await smartAccount.sendTransaction({ to, value: 4321n, data: '0x' })
    const { transactionHash } = await response.waitForTxHash()
    expect(transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    const result = (await response.wait()) as any
    expect(result.success).toBe('true')
    expect(result.userOpHash).toBe(response.userOpHash)
    expect(result.sender).toBe(address)
    expect(typeof result.nonce).toBe('number')
    expect(typeof result.actualGasUsed).toBe('number')
    expect(typeof result.actualGasCost).toBe('number')
    expect(result.receipt.transactionHash).toBe(transactionHash)
    expect(typeof result.receipt.blockNumber).toBe('number')
    expect(result.receipt.gasUsed).toEqual({
      _hex: expect.stringMatching(/^0x[0-9a-f]+$/),
      _isBigNumber: true,
    })
    expect(result.receipt.cumulativeGasUsed._isBigNumber).toBe(true)
    expect(result.receipt.effectiveGasPrice._isBigNumber).toBe(true)
    expect(result.receipt).toMatchObject({ status: 1, type: 2, byzantium: true, contractAddress: null })
    // Only this operation's logs, ending with its UserOperationEvent.
    expect(result.logs.at(-1).topics[1]).toBe(response.userOpHash)
    expect(await publicClientOf(service).getBalance({ address: to })).toBe(4321n)
  }, 30_000)

  it('sends a batch (executeBatch_y6U) and biconomy_getUserOperationStatus reports it CONFIRMED', async () => {
    const { smartAccount } = await createBiconomyAccount()
    const token = service.chain!.addresses.tokens[0]!.address
    const [a, b] = [randomAddress(), randomAddress()]
    const response = await smartAccount.sendTransaction([
      { to: a, value: 11n, data: '0x' },
      { to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [b, 5n] }) },
    ])
    const status = await response.waitForTxHash()
    expect(status.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    const { body } = await callBundler(service, 'biconomy_getUserOperationStatus', [response.userOpHash])
    expect(body.result.state).toBe('CONFIRMED')
    expect(body.result.userOperationReceipt.success).toBe('true')
    const client = publicClientOf(service)
    expect(await client.getBalance({ address: a })).toBe(11n)
    expect(
      await client.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [b] }),
    ).toBe(5n)
  }, 30_000)
})
