import { createSmartAccountClient } from '@biconomy/account'
import { createWalletClient, encodeFunctionData, http, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Chain,
  ecdsaModuleAbi,
  fundEth,
  getNonce,
  smartAccountFactoryAbi,
} from '../../../src/main/service/chain'
import { startRpcRelay } from '../../helpers/startRpcRelay'
import {
  buildOp,
  encodeSmartAccountExecute,
  getSmartAccountInitCode,
  sendHandleOps,
  signSmartAccountOp,
  withEmbeddedChain,
} from './userOpHelpers'

describe('Biconomy Smart Account v2 on the embedded chain', () => {
  let chain: Chain
  let relay: Awaited<ReturnType<typeof startRpcRelay>>
  withEmbeddedChain((started) => {
    chain = started
  })
  beforeAll(async () => {
    relay = await startRpcRelay(chain)
  })
  afterAll(async () => relay?.close())

  async function createSdkAccount(ownerKey: `0x${string}`) {
    const signer = createWalletClient({
      account: privateKeyToAccount(ownerKey),
      chain: { ...foundry, rpcUrls: { default: { http: [relay.url] } } },
      transport: http(relay.url),
    })
    return createSmartAccountClient({
      signer,
      chainId: 31337,
      rpcUrl: relay.url,
      bundlerUrl: 'http://127.0.0.1:9/api/v2/31337/test-key',
    })
  }

  it('computes the same counterfactual address in the SDK (off-chain) and in the factory (on-chain)', async () => {
    for (const key of [generatePrivateKey(), generatePrivateKey()]) {
      const account = await createSdkAccount(key)
      const sdkAddress = await account.getAccountAddress()
      const setup = encodeFunctionData({
        abi: ecdsaModuleAbi,
        functionName: 'initForSmartAccount',
        args: [privateKeyToAccount(key).address],
      })
      const onChain = await chain.publicClient.readContract({
        address: chain.addresses.smartAccountFactory,
        abi: smartAccountFactoryAbi,
        functionName: 'getAddressForCounterFactualAccount',
        args: [chain.addresses.ecdsaModule, setup, 0n],
      })
      expect(onChain).toBe(sdkAddress)
      const simulated = await chain.publicClient.simulateContract({
        address: chain.addresses.smartAccountFactory,
        abi: smartAccountFactoryAbi,
        functionName: 'deployCounterFactualAccount',
        args: [chain.addresses.ecdsaModule, setup, 0n],
      })
      expect(simulated.result).toBe(sdkAddress)
    }
  })

  it('matches the address given for the protocol doc example (owner anvil #1, index 0)', async () => {
    const account = await createSdkAccount(
      '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
    )
    expect(await account.getAccountAddress()).toBe('0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90')
  })

  it('deploys the account and runs its call in one handleOps with the SDK initCode, signed by the owner through the ECDSA module', async () => {
    const ownerKey = generatePrivateKey()
    const owner = privateKeyToAccount(ownerKey)
    const sdkAccount = await createSdkAccount(ownerKey)
    const sender = await sdkAccount.getAccountAddress()
    const initCode = (await sdkAccount.getAccountInitCode()) as `0x${string}`
    expect(initCode.toLowerCase()).toBe(getSmartAccountInitCode(chain, owner.address).toLowerCase())

    await fundEth(chain, sender, parseEther('1'))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const op = await buildOp(chain, {
      sender,
      nonce: await getNonce(chain, sender, 0n),
      initCode,
      callData: encodeSmartAccountExecute(recipient, parseEther('0.01')),
    })
    op.signature = await signSmartAccountOp(chain, op, owner)
    // The SDK signs the same hash the same way.
    expect(await sdkAccount.signUserOpHash(await sdkAccount.getUserOpHash(op))).toBe(op.signature)

    const { receipt, events } = await sendHandleOps(chain, [op])
    expect(receipt.status).toBe('success')
    expect(events).toHaveLength(1)
    expect(events[0]?.success).toBe(true)
    expect(events[0]?.sender).toBe(sender)
    expect(await chain.publicClient.getBalance({ address: recipient })).toBe(parseEther('0.01'))
    expect((await chain.publicClient.getCode({ address: sender }))?.length).toBeGreaterThan(2)
    const moduleOwner = await chain.publicClient.readContract({
      address: chain.addresses.ecdsaModule,
      abi: ecdsaModuleAbi,
      functionName: 'getOwner',
      args: [sender],
    })
    expect(moduleOwner).toBe(owner.address)
    expect(await getNonce(chain, sender, 0n)).toBe(1n)
  })
})
