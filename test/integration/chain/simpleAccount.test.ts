import { concat, encodeFunctionData, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  type Chain,
  entryPointAbi,
  fundEth,
  getRevertData,
  simpleAccountAbi,
  simpleAccountFactoryAbi,
} from '../../../src/main/service/chain'
import { computeUserOpHash, getUserOpHash } from '../../../src/main/service/entryPoint/v06/computeUserOpHash'
import { buildOp, sendHandleOps, withEmbeddedChain } from './userOpHelpers'

describe('SimpleAccount v0.6 on the embedded chain', () => {
  let chain: Chain
  withEmbeddedChain((started) => {
    chain = started
  })

  it('agrees on the counterfactual address: factory getAddress = EntryPoint.getSenderAddress', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const fromFactory = await chain.publicClient.readContract({
      address: chain.addresses.simpleAccountFactory,
      abi: simpleAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    const initCode = concat([
      chain.addresses.simpleAccountFactory,
      encodeFunctionData({
        abi: simpleAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner.address, 0n],
      }),
    ])
    // getSenderAddress always reverts with SenderAddressResult(sender).
    const err = await chain.publicClient
      .simulateContract({
        address: chain.addresses.entryPoint,
        abi: entryPointAbi,
        functionName: 'getSenderAddress',
        args: [initCode],
      })
      .catch((e: unknown) => e)
    const data = getRevertData(err)
    expect(data?.slice(0, 10)).toBe('0x6ca7b806') // SenderAddressResult(address)
    expect(`0x${data?.slice(-40)}`.toLowerCase()).toBe(fromFactory.toLowerCase())
  })

  it('deploys a SimpleAccount with initCode and executes its call in one handleOps', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const sender = await chain.publicClient.readContract({
      address: chain.addresses.simpleAccountFactory,
      abi: simpleAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    await fundEth(chain, sender, parseEther('1'))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const op = await buildOp(chain, {
      sender,
      initCode: concat([
        chain.addresses.simpleAccountFactory,
        encodeFunctionData({
          abi: simpleAccountFactoryAbi,
          functionName: 'createAccount',
          args: [owner.address, 0n],
        }),
      ]),
      callData: encodeFunctionData({
        abi: simpleAccountAbi,
        functionName: 'execute',
        args: [recipient, parseEther('0.02'), '0x'],
      }),
    })
    const hash = computeUserOpHash(op, chain.chainId, chain.addresses.entryPoint)
    expect(await getUserOpHash(chain, op)).toBe(hash)
    op.signature = await owner.signMessage({ message: { raw: hash } })

    const { receipt, events } = await sendHandleOps(chain, [op])
    expect(receipt.status).toBe('success')
    expect(events[0]?.success).toBe(true)
    expect(events[0]?.userOpHash).toBe(hash)
    expect(await chain.publicClient.getBalance({ address: recipient })).toBe(parseEther('0.02'))
  })
})
