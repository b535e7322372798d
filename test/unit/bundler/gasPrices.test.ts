import type { PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { createGasPrices } from '../../../src/main/service/bundler/gasPrices'

const hex = (v: bigint | number) => `0x${v.toString(16)}` as const

/** A node that answers eth_getBlockByNumber with block `number` and counts the fetches. */
function fakeNode(start: { number: bigint; baseFeePerGas: bigint }) {
  const node = { fetches: 0, block: { ...start } }
  const client = {
    request: async ({ method }: { method: string }) => {
      if (method === 'eth_getBlockByNumber') {
        node.fetches++
        return {
          number: hex(node.block.number),
          baseFeePerGas: hex(node.block.baseFeePerGas),
          timestamp: hex(1_700_000_000),
          gasLimit: hex(30_000_000),
        }
      }
      if (method === 'eth_maxPriorityFeePerGas') return hex(1_000_000)
      throw new Error(`unexpected ${method}`)
    },
  } as unknown as PublicClient
  return { node, client }
}

describe('gas prices', () => {
  it('moves the cached block to the block of our mined transaction, with the base fee read off the receipt', async () => {
    const { node, client } = fakeNode({ number: 10n, baseFeePerGas: 1_000n })
    const prices = createGasPrices(client, 60_000)
    await prices.latestBlock()
    const offered = { maxFeePerGas: 10_000n, maxPriorityFeePerGas: 300n }
    prices.observeMinedTransaction({ blockNumber: hex(11), effectiveGasPrice: hex(875 + 300) }, offered)
    const block = await prices.latestBlock()
    expect(block.number).toBe(11n)
    expect(block.baseFeePerGas).toBe(875n)
    expect(node.fetches).toBe(1)
    expect(await prices.gasFeeValues()).toEqual({
      maxPriorityFeePerGas: 1_000_000n,
      maxFeePerGas: 875n * 2n + 1_000_000n,
    })
  })

  it('fetches the block again when the transaction paid its fee cap (the base fee cannot be told)', async () => {
    const { node, client } = fakeNode({ number: 10n, baseFeePerGas: 1_000n })
    const prices = createGasPrices(client, 60_000)
    await prices.latestBlock()
    node.block = { number: 11n, baseFeePerGas: 9_900n }
    prices.observeMinedTransaction(
      { blockNumber: hex(11), effectiveGasPrice: hex(10_000) },
      { maxFeePerGas: 10_000n, maxPriorityFeePerGas: 300n },
    )
    const block = await prices.latestBlock()
    expect(node.fetches).toBe(2)
    expect(block.baseFeePerGas).toBe(9_900n)
  })

  it('ignores a receipt of a block older than the cached one', async () => {
    const { client } = fakeNode({ number: 20n, baseFeePerGas: 1_000n })
    const prices = createGasPrices(client, 60_000)
    await prices.latestBlock()
    prices.observeMinedTransaction(
      { blockNumber: hex(19), effectiveGasPrice: hex(500) },
      { maxFeePerGas: 10_000n, maxPriorityFeePerGas: 300n },
    )
    const block = await prices.latestBlock()
    expect(block.number).toBe(20n)
    expect(block.baseFeePerGas).toBe(1_000n)
  })
})
