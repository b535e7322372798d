import { toSimpleSmartAccount } from 'permissionless/accounts'
import { encodeFunctionData, http } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { proveClientCell } from '../clients/clientMatrix'
import { createDapp, gasTankOf, readPaymasterEvents, registerToken, tokenBalance } from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

async function createSponsoredClient(paymasterUrl: string, paymasterContext?: unknown) {
  const client = publicClientOf(service)
  const account = await toSimpleSmartAccount({
    client,
    owner: privateKeyToAccount(generatePrivateKey()),
    entryPoint: { address: entryPoint06Address, version: '0.6' },
    factoryAddress: service.chain!.addresses.simpleAccountFactory,
  })
  const bundlerClient = createBundlerClient({
    client,
    account,
    paymaster: createPaymasterClient({ transport: http(paymasterUrl) }),
    paymasterContext,
    transport: http(service.info().bundlerUrl),
    pollingInterval: 50,
  })
  return { account, bundlerClient, client }
}

describe('viem createPaymasterClient (ERC-7677) + createBundlerClient with a SimpleAccount', () => {
  it('sponsors a new account end to end: stub data for estimation, signed data for sending, paid from the gas tank', async (context) => {
    proveClientCell(context, {
      client: 'permissionless 0.4',
      account: 'Simple',
      entryPoint: '0.6',
      payment: 'sponsored',
    })
    const { apiKey, paymasterUrl, paymasterId } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint'])
    const { account, bundlerClient, client } = await createSponsoredClient(paymasterUrl)
    const recipient = randomAddress()
    const tankBefore = await gasTankOf(service, paymasterId, '0.6')
    const hash = await bundlerClient.sendUserOperation({
      calls: [
        {
          to: token,
          data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [recipient, 9n] }),
        },
      ],
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(service.chain!.addresses.verifyingPaymaster)
    expect(await tokenBalance(service, token, recipient)).toBe(9n)
    expect(await client.getBalance({ address: account.address })).toBe(0n)
    // The tank is charged what the paymaster's postOp deducts: the gas up to postOp plus its fixed overhead
    // (unaccountedEPGasOverhead × gas price), within a few percent of the EntryPoint's actualGasCost.
    const deducted = readPaymasterEvents(receipt.receipt).find((e) => e.name === 'GasBalanceDeducted')!
    expect(deducted.args._paymasterId).toBe(paymasterId)
    expect(tankBefore - (await gasTankOf(service, paymasterId, '0.6'))).toBe(deducted.args._charge)
    const charge = deducted.args._charge as bigint
    expect(
      charge > (receipt.actualGasCost * 95n) / 100n && charge < (receipt.actualGasCost * 105n) / 100n,
    ).toBe(true)
  }, 60_000)

  it('rejects a non-whitelisted call through the paymaster client with the recorded reason', async () => {
    const { apiKey, paymasterUrl } = await createDapp(service)
    await registerToken(service, apiKey, ['mint'])
    const { bundlerClient } = await createSponsoredClient(paymasterUrl)
    const error = await bundlerClient
      .sendUserOperation({ calls: [{ to: randomAddress(), value: 0n }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Error)
    expect(String(error.details ?? error.message)).toMatch(/Smart contract data not found/)
  }, 60_000)
})
