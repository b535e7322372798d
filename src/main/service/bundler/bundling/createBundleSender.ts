import type { Hex } from 'viem'
import { hexToBigInt } from 'viem'
import { signTransaction } from '../../chain/keys/signTransaction'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import type { Logger } from '../../log'
import type { GasFees } from '../estimation/estimateUserOperationGas'
import type { RpcLog } from './parseBundleLogs'

/** A transaction receipt as JSON-RPC returns it. */
export type RpcTransactionReceipt = {
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockNumber: Hex
  from: Hex
  to: Hex | null
  contractAddress: Hex | null
  cumulativeGasUsed: Hex
  gasUsed: Hex
  effectiveGasPrice: Hex
  logs: RpcLog[]
  logsBloom: Hex
  status: Hex
  type: Hex
}

export type SendBundleParameters = { data: Hex; gas: bigint }

export type BundleSender = {
  /** Signs and sends a handleOps transaction and waits for its receipt (replacing it if it does not mine). */
  send: (
    params: SendBundleParameters,
    onSubmitted?: (transactionHash: Hex) => void,
  ) => Promise<RpcTransactionReceipt>
  /** Reads the executor's nonce from the node again (after a restart of the chain or a failed send). */
  resync: () => void
}

export type CreateBundleSenderParameters = {
  chain: Pick<Chain, 'chainId' | 'publicClient' | 'executor' | 'addresses'>
  gasFees: () => Promise<GasFees>
  /** Time to wait for a receipt before the transaction is replaced with higher fees. */
  receiptTimeoutMs: number
  log: Logger
}

const MAX_REPLACEMENTS = 3
const NONCE_ERROR = /nonce too low|nonce too high|already known|invalid nonce|nonce.*(low|lower|used)/i
const UNDERPRICED = /underpriced|fee too low|max fee per gas less than block base fee/i

/**
 * The executor EOA's transaction pipeline: a local nonce counter (read once, resynced from the node after any
 * failed send), local signing, eth_sendRawTransaction, receipt polling, and fee-bumped replacement of a
 * transaction that does not mine in time, so the executor's nonce never stays stuck.
 */
export function createBundleSender({
  chain,
  gasFees,
  receiptTimeoutMs,
  log,
}: CreateBundleSenderParameters): BundleSender {
  let nextNonce: number | undefined
  const executor = chain.executor

  const readNonce = async () =>
    Number(
      hexToBigInt(
        await requestRpc<Hex>(chain.publicClient, 'eth_getTransactionCount', [executor.address, 'pending']),
      ),
    )

  const waitForReceipt = async (hashes: Hex[], timeoutMs: number): Promise<RpcTransactionReceipt | null> => {
    const deadline = Date.now() + timeoutMs
    let delay = 0
    for (;;) {
      for (const hash of hashes) {
        const receipt = await requestRpc<RpcTransactionReceipt | null>(
          chain.publicClient,
          'eth_getTransactionReceipt',
          [hash],
        )
        if (receipt?.blockNumber) return receipt
      }
      if (Date.now() >= deadline) return null
      delay = delay === 0 ? 2 : Math.min(delay * 2, 100)
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  return {
    resync() {
      nextNonce = undefined
    },
    async send({ data, gas }, onSubmitted) {
      nextNonce ??= await readNonce()
      let nonce = nextNonce
      const fees = await gasFees()
      let { maxFeePerGas, maxPriorityFeePerGas } = fees
      const sent: Hex[] = []
      for (let attempt = 0; attempt <= MAX_REPLACEMENTS; attempt++) {
        const signed = await signTransaction(executor.account, {
          chainId: chain.chainId,
          type: 'eip1559',
          to: chain.addresses.entryPoint,
          data,
          gas,
          nonce,
          maxFeePerGas,
          maxPriorityFeePerGas,
        })
        let hash: Hex
        try {
          hash = await requestRpc<Hex>(chain.publicClient, 'eth_sendRawTransaction', [signed])
        } catch (err) {
          const message = (err as Error).message ?? ''
          if (NONCE_ERROR.test(message) && sent.length === 0) {
            // Someone else used the executor (or the chain restarted): take the node's nonce and try again.
            nonce = await readNonce()
            nextNonce = nonce
            log.warn({ nonce, err: message.split('\n')[0] }, 'executor nonce resynced')
            continue
          }
          if (UNDERPRICED.test(message)) {
            ;({ maxFeePerGas, maxPriorityFeePerGas } = bump(maxFeePerGas, maxPriorityFeePerGas))
            continue
          }
          nextNonce = undefined
          throw err
        }
        sent.push(hash)
        nextNonce = nonce + 1
        onSubmitted?.(hash)
        const receipt = await waitForReceipt(sent, receiptTimeoutMs)
        if (receipt) return receipt
        log.warn(
          { hash, nonce, attempt },
          'bundle transaction not mined in time; replacing it with higher fees',
        )
        ;({ maxFeePerGas, maxPriorityFeePerGas } = bump(maxFeePerGas, maxPriorityFeePerGas))
      }
      // Still nothing: forget our nonce so the next bundle reads the node's, and report the failure.
      nextNonce = undefined
      const late = sent.length > 0 ? await waitForReceipt(sent, 0) : null
      if (late) return late
      throw new Error(`bundle transaction was not mined after ${MAX_REPLACEMENTS} replacements`)
    },
  }
}

/** +25 % on both fees (nodes want at least +10 % for a replacement). */
function bump(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) {
  return {
    maxFeePerGas: (maxFeePerGas * 125n) / 100n + 1n,
    maxPriorityFeePerGas: (maxPriorityFeePerGas * 125n) / 100n + 1n,
  }
}
