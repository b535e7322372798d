import { createPublicClient, custom, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createBundleSender } from '../../../src/main/service/bundler/bundling/createBundleSender'
import { createGasPrices } from '../../../src/main/service/bundler/gasPrices'
import { type Chain, mine, requestRpc, setAutomine } from '../../../src/main/service/chain'
import { registerNodeRequest } from '../../../src/main/service/chain/node/requestRpc'
import { entryPointV06 } from '../../../src/main/service/entryPoint'
import { silentLogger } from '../../../src/main/service/log/logger'
import { withEmbeddedChain } from '../chain/userOpHelpers'

/** The executor's pipeline on the embedded anvil: the sync send, and what happens when blocks do not come. */
describe('bundle sender', () => {
  let chain: Chain
  withEmbeddedChain((started) => {
    chain = started
  })

  const emptyBundle = () => ({
    to: entryPointV06.address,
    data: entryPointV06.encodeHandleOps([], chain.executor.address),
    gas: 200_000n,
  })
  const newSender = (receiptTimeoutMs: number, senderChain: Pick<Chain, 'publicClient'> = chain) => {
    const gasPrices = createGasPrices(chain.publicClient)
    const mined: bigint[] = []
    const offers: bigint[] = []
    const sender = createBundleSender({
      chain: { ...chain, ...senderChain },
      gasFees: () => gasPrices.gasFeeValues(),
      receiptTimeoutMs,
      onMined: (receipt, offered) => {
        mined.push(BigInt(receipt.blockNumber))
        offers.push(offered.maxFeePerGas)
        gasPrices.observeMinedTransaction(receipt, offered)
      },
      log: silentLogger,
    })
    return { sender, gasPrices, mined, offers }
  }

  it('gets the receipt in the same call (eth_sendRawTransactionSync) on an automining anvil, and the cached block follows it', async () => {
    expect(chain.capabilities.sendRawTransactionSync).toBe(true)
    const { sender, gasPrices, mined } = newSender(5_000)
    const before = await gasPrices.latestBlock()
    const submitted: Hex[] = []
    const receipt = await sender.send(emptyBundle(), (hash) => submitted.push(hash))
    expect(receipt.status).toBe('0x1')
    expect(submitted).toEqual([receipt.transactionHash])
    expect(mined).toEqual([BigInt(receipt.blockNumber)])
    const cached = await gasPrices.latestBlock()
    expect(cached.number).toBe(BigInt(receipt.blockNumber))
    expect(cached.number).toBeGreaterThan(before.number)
    // The base fee read off the receipt is the block's own.
    const block = await chain.publicClient.getBlock({ blockNumber: cached.number })
    expect(cached.baseFeePerGas).toBe(block.baseFeePerGas)
  })

  it('reports a transaction the node holds as submitted, and returns its receipt once a block is mined (automine off)', async () => {
    const { sender } = newSender(10_000)
    await setAutomine(chain, false)
    try {
      const submitted: Hex[] = []
      const sending = sender.send(emptyBundle(), (hash) => submitted.push(hash))
      await new Promise((resolve) => setTimeout(resolve, 400))
      expect(submitted).toHaveLength(1)
      await mine(chain)
      const receipt = await sending
      expect(receipt.transactionHash).toBe(submitted[0])
      expect(receipt.status).toBe('0x1')
    } finally {
      await setAutomine(chain, true)
    }
  })

  it('replaces a transaction not mined within the receipt timeout with higher fees, keeping the executor nonce moving', async () => {
    const { sender, gasPrices, offers } = newSender(300)
    const initial = await gasPrices.gasFeeValues()
    await setAutomine(chain, false)
    let receipt: Awaited<ReturnType<typeof sender.send>>
    const submitted: Hex[] = []
    try {
      const sending = sender.send(emptyBundle(), (hash) => submitted.push(hash))
      // The first attempt times out after 300 ms and a replacement with +25 % fees goes out.
      await new Promise((resolve) => setTimeout(resolve, 800))
      expect(submitted.length).toBeGreaterThanOrEqual(2)
      await mine(chain)
      receipt = await sending
    } finally {
      await setAutomine(chain, true)
    }
    expect(submitted).toContain(receipt.transactionHash)
    const [first, mined] = await Promise.all([
      chain.publicClient.getTransaction({ hash: submitted[0] as Hex }).catch(() => null),
      chain.publicClient.getTransaction({ hash: receipt.transactionHash }),
    ])
    // The one that mined is a replacement (same nonce, higher fee) of the first.
    expect(receipt.transactionHash).not.toBe(submitted[0])
    expect(first).toBeNull()
    expect(mined.maxFeePerGas).toBe(offers[0])
    expect(offers[0]).toBeGreaterThanOrEqual((initial.maxFeePerGas * 125n) / 100n)
    // The next bundle goes through at once with automine back on.
    const next = await sender.send(emptyBundle())
    expect(next.status).toBe('0x1')
    const nextTx = await chain.publicClient.getTransaction({ hash: next.transactionHash })
    expect(nextTx.nonce).toBe(mined.nonce + 1)
  })

  it('takes back a transaction a slow node rejects after the acceptance guess, resyncs the nonce and lands the bundle', async () => {
    // A node that answers eth_sendRawTransactionSync errors only after 250 ms (past the 100 ms guess).
    const request = async (method: string, params: unknown) => {
      try {
        return await requestRpc(chain.publicClient, method, params as unknown[])
      } catch (err) {
        if (method === 'eth_sendRawTransactionSync') await new Promise((resolve) => setTimeout(resolve, 250))
        throw err
      }
    }
    const slowClient = createPublicClient({
      transport: custom({ request: ({ method, params }) => request(method, params) }),
    }) as unknown as Chain['publicClient']
    registerNodeRequest(slowClient, request)
    const { sender } = newSender(5_000, { publicClient: slowClient })
    const first = await sender.send(emptyBundle())
    const firstNonce = (await chain.publicClient.getTransaction({ hash: first.transactionHash })).nonce
    // Someone else moves the executor's nonce on: the sender's next transaction is "nonce too low", said late.
    await requestRpc(chain.publicClient, 'anvil_setNonce', [
      chain.executor.address,
      `0x${(firstNonce + 3).toString(16)}`,
    ])
    const submitted: Hex[] = []
    const receipt = await sender.send(emptyBundle(), (hash) => submitted.push(hash))
    expect(receipt.status).toBe('0x1')
    // The rejected transaction looked accepted (reported as submitted) before the node said no.
    expect(submitted).toHaveLength(2)
    expect(submitted[1]).toBe(receipt.transactionHash)
    expect(
      await chain.publicClient.getTransaction({ hash: submitted[0] as Hex }).catch(() => null),
    ).toBeNull()
    expect((await chain.publicClient.getTransaction({ hash: receipt.transactionHash })).nonce).toBe(
      firstNonce + 3,
    )
  })
})
