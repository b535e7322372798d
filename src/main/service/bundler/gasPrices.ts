import type { Hex, PublicClient } from 'viem'
import { hexToBigInt } from 'viem'
import { requestRpc } from '../chain/node/requestRpc'
import type { GasFees } from '../entryPoint/types'

export type LatestBlock = {
  number: bigint
  baseFeePerGas: bigint
  timestamp: bigint
  gasLimit: bigint
  fetchedAt: number
}

export type GasPrices = {
  /** The latest block (cached for `maxAgeMs`; `invalidate` after mining). */
  latestBlock: () => Promise<LatestBlock>
  /** biconomy_getGasFeeValues: priority fee from the node, max fee = 2 x base fee + priority fee. */
  gasFeeValues: () => Promise<GasFees>
  /**
   * A transaction of ours was mined: the cached block moves to its block, with the base fee read off the
   * receipt (effective price minus the priority fee paid), so the next caller needs no block fetch.
   */
  observeMinedTransaction: (receipt: { blockNumber: Hex; effectiveGasPrice: Hex }, offered: GasFees) => void
  invalidate: () => void
}

/** Floor of the priority fee we suggest (the node's suggestion is used when higher). */
const MIN_PRIORITY_FEE = 1_000_000n
/** How long a fetched block stays fresh. */
const DEFAULT_MAX_AGE_MS = 1000

/**
 * Block and fee data for the hot path: fetched at most once per `maxAgeMs` (and again after each of our
 * bundles is mined), concurrent callers share one request.
 */
export function createGasPrices(client: PublicClient, maxAgeMs = DEFAULT_MAX_AGE_MS): GasPrices {
  let block: LatestBlock | undefined
  let inFlight: Promise<LatestBlock> | undefined
  let priorityFee: { value: bigint; fetchedAt: number } | undefined
  let priorityInFlight: Promise<bigint> | undefined

  const fetchBlock = async (): Promise<LatestBlock> => {
    const raw = await requestRpc<{ number: Hex; baseFeePerGas?: Hex; timestamp: Hex; gasLimit: Hex }>(
      client,
      'eth_getBlockByNumber',
      ['latest', false],
    )
    return {
      number: hexToBigInt(raw.number),
      baseFeePerGas: raw.baseFeePerGas ? hexToBigInt(raw.baseFeePerGas) : 0n,
      timestamp: hexToBigInt(raw.timestamp),
      gasLimit: hexToBigInt(raw.gasLimit),
      fetchedAt: Date.now(),
    }
  }
  const latestBlock = async () => {
    if (block && Date.now() - block.fetchedAt < maxAgeMs) return block
    inFlight ??= fetchBlock().finally(() => {
      inFlight = undefined
    })
    block = await inFlight
    return block
  }
  const suggestedPriorityFee = async () => {
    if (priorityFee && Date.now() - priorityFee.fetchedAt < maxAgeMs * 10) return priorityFee.value
    priorityInFlight ??= requestRpc<Hex>(client, 'eth_maxPriorityFeePerGas')
      .then(hexToBigInt)
      .catch(() => MIN_PRIORITY_FEE)
      .finally(() => {
        priorityInFlight = undefined
      })
    const value = await priorityInFlight
    priorityFee = { value, fetchedAt: Date.now() }
    return value
  }
  return {
    latestBlock,
    async gasFeeValues() {
      const [{ baseFeePerGas }, suggested] = await Promise.all([latestBlock(), suggestedPriorityFee()])
      const maxPriorityFeePerGas = suggested > MIN_PRIORITY_FEE ? suggested : MIN_PRIORITY_FEE
      return { maxPriorityFeePerGas, maxFeePerGas: baseFeePerGas * 2n + maxPriorityFeePerGas }
    },
    observeMinedTransaction(receipt, offered) {
      const number = hexToBigInt(receipt.blockNumber)
      if (!block || number <= block.number) return
      const effective = hexToBigInt(receipt.effectiveGasPrice)
      // At the fee cap the priority fee paid is unknown, and so is the base fee: fetch the block next time.
      if (effective >= offered.maxFeePerGas || effective < offered.maxPriorityFeePerGas) {
        block = { ...block, fetchedAt: 0 }
        return
      }
      block = { ...block, number, baseFeePerGas: effective - offered.maxPriorityFeePerGas }
    },
    invalidate() {
      if (block) block = { ...block, fetchedAt: 0 }
    },
  }
}
