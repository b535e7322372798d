import type { Address, Hex, SignedAuthorizationList } from 'viem'
import { keccak256Hex } from '../../chain/keccak256'
import { signTransaction } from '../../chain/keys/signTransaction'
import { requestRpc } from '../../chain/node/requestRpc'
import { isNonceError } from '../../chain/transactions/createNonceManager'
import type { Chain } from '../../chain/types'
import type { GasFees } from '../../entryPoint/types'
import type { Logger } from '../../log/logger'
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

/**
 * A handleOps transaction: to the EntryPoint of the bundle's version; with EIP-7702 authorizations (accounts
 * delegating in this bundle) it goes out as a type-4 transaction carrying them.
 */
export type SendBundleParameters = {
  to: Address
  data: Hex
  gas: bigint
  authorizationList?: SignedAuthorizationList
}

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
  chain: Pick<Chain, 'chainId' | 'publicClient' | 'executor' | 'capabilities' | 'nonceManagers'>
  gasFees: () => Promise<GasFees>
  /** Time to wait for a receipt before the transaction is replaced with higher fees. */
  receiptTimeoutMs: number
  /** Called with each bundle receipt and the fees the transaction offered (the block's base fee follows). */
  onMined?: (receipt: RpcTransactionReceipt, fees: GasFees) => void
  log: Logger
}

const MAX_REPLACEMENTS = 3
const UNDERPRICED = /underpriced|fee too low|max fee per gas less than block base fee/i
/**
 * The sync call ended without an answer about the block: the node gave up waiting for it (anvil: "Transaction
 * confirmation timeout") or our transport gave up waiting for the node. The transaction may still mine: poll.
 */
const SYNC_TIMEOUT = /timeout|timed out|not processed within|did not answer within/i
/** A sync send the node has not answered after this long was accepted (a rejection comes at once). */
const ACCEPTED_AFTER_MS = 100

/** A transaction the node took: its hash, and what the send says later (the receipt, null: poll for it). */
type Accepted = { hash: Hex; outcome: Promise<RpcTransactionReceipt | null> }

/**
 * The executor EOA's transaction pipeline: nonces from the executor's nonce manager (shared with every other
 * sender of the executor: faucet, gas tanks, deployment), local signing, eth_sendRawTransactionSync where the node
 * serves it (the receipt in the same call: anvil in automine answers once the block is mined) or
 * eth_sendRawTransaction and receipt polling, and fee-bumped replacement of a transaction that does not mine in
 * time, so the executor's nonce never stays stuck.
 */
export function createBundleSender({
  chain,
  gasFees,
  receiptTimeoutMs,
  onMined,
  log,
}: CreateBundleSenderParameters): BundleSender {
  const executor = chain.executor
  const nonces = chain.nonceManagers.of(executor.address)

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

  /**
   * Sends one signed transaction; `onAccepted` gets its hash once the node took it. Resolves with the receipt
   * when the node answered with it in time (eth_sendRawTransactionSync), else null (poll for it).
   */
  const submit = async (
    signed: Hex,
    onAccepted: (hash: Hex) => void,
  ): Promise<RpcTransactionReceipt | null> => {
    if (!chain.capabilities.sendRawTransactionSync) {
      onAccepted(await requestRpc<Hex>(chain.publicClient, 'eth_sendRawTransaction', [signed]))
      return null
    }
    // The node holds the call until the block is mined (anvil: up to 30 s, with interval mining or automine
    // off); it rejects a bad transaction at once, so one it still holds after a moment was accepted.
    const sync = requestRpc<RpcTransactionReceipt>(chain.publicClient, 'eth_sendRawTransactionSync', [signed])
    const timers: NodeJS.Timeout[] = []
    const after = <T>(ms: number, value: T) =>
      new Promise<T>((resolve) => {
        const timer = setTimeout(() => resolve(value), ms)
        timer.unref?.()
        timers.push(timer)
      })
    let accepted = false
    // The hash is the receipt's when the node answers with it (hashing kilobytes of calldata saved per bundle).
    const accept = (hash?: Hex) => {
      if (!accepted) onAccepted(hash ?? keccak256Hex(signed))
      accepted = true
    }
    try {
      const first = await Promise.race([sync, after(ACCEPTED_AFTER_MS, 'waiting' as const)])
      if (first !== 'waiting') {
        accept(first?.transactionHash)
        return first
      }
      accept()
      return await Promise.race([sync, after(receiptTimeoutMs - ACCEPTED_AFTER_MS, null)])
    } catch (err) {
      // Accepted, but not mined within the node's own wait: poll for it like a plain send.
      if (!SYNC_TIMEOUT.test((err as Error).message ?? '')) throw err
      accept()
      return null
    } finally {
      for (const timer of timers) clearTimeout(timer)
      sync.catch(() => {})
    }
  }

  /**
   * Submits a signed transaction and resolves as soon as the node took it (the nonce counts as used from then on),
   * with what the send says later; rejects when the node refused it first.
   */
  const submitAccepted = (signed: Hex) =>
    new Promise<Accepted>((resolve, reject) => {
      const outcome: Promise<RpcTransactionReceipt | null> = submit(signed, (hash) =>
        resolve({ hash, outcome }),
      )
      // A refusal before acceptance rejects the acceptance; after it, the caller reads it from `outcome`.
      outcome.catch(reject)
    })

  return {
    resync() {
      nonces.resync()
    },
    async send({ to, data, gas, authorizationList }, onSubmitted) {
      let { maxFeePerGas, maxPriorityFeePerGas } = await gasFees()
      const sent: Hex[] = []
      let bumps = 0
      const bumpFees = () => {
        bumps++
        ;({ maxFeePerGas, maxPriorityFeePerGas } = bump(maxFeePerGas, maxPriorityFeePerGas))
      }
      /** Signs and submits with `nonce` until the node takes it (an underpriced one again with higher fees). */
      const sendWithNonce = async (nonce: number): Promise<Accepted> => {
        for (;;) {
          const transaction = {
            chainId: chain.chainId,
            to,
            data,
            gas,
            nonce,
            maxFeePerGas,
            maxPriorityFeePerGas,
          }
          const signed = authorizationList?.length
            ? await executor.account.signTransaction({ ...transaction, type: 'eip7702', authorizationList })
            : await signTransaction(executor.account, { ...transaction, type: 'eip1559' })
          try {
            const accepted = await submitAccepted(signed)
            sent.push(accepted.hash)
            onSubmitted?.(accepted.hash)
            return accepted
          } catch (err) {
            if (!UNDERPRICED.test((err as Error).message ?? '') || bumps >= MAX_REPLACEMENTS) throw err
            bumpFees()
          }
        }
      }
      /** The first transaction takes the executor's next nonce (the manager resends it with the node's after a nonce error). */
      const sendFirst = async (): Promise<{ nonce: number; accepted: Accepted }> => {
        let used = -1
        const accepted = await nonces.withNextNonce(async (nonce) => {
          used = nonce
          return sendWithNonce(nonce)
        })
        return { nonce: used, accepted }
      }

      let { nonce, accepted } = await sendFirst()
      for (let replacement = 0; ; replacement++) {
        let synced: RpcTransactionReceipt | null
        try {
          synced = await accepted.outcome
        } catch (err) {
          // Refused after it looked accepted (a node slower than ACCEPTED_AFTER_MS to say no): never submitted, and
          // its nonce is free again.
          if (sent[sent.length - 1] === accepted.hash) sent.pop()
          nonces.resync()
          if (isNonceError(err) && sent.length === 0) {
            // Someone else used the executor (or the chain restarted): send it again with the node's nonce.
            log.warn({ nonce, err: (err as Error).message.split('\n')[0] }, 'executor nonce resynced')
            ;({ nonce, accepted } = await sendFirst())
            continue
          }
          throw err
        }
        // A sync send already waited receiptTimeoutMs when it comes back without a receipt.
        const receipt = synced?.blockNumber
          ? synced
          : await waitForReceipt(sent, chain.capabilities.sendRawTransactionSync ? 0 : receiptTimeoutMs)
        if (receipt) {
          onMined?.(receipt, { maxFeePerGas, maxPriorityFeePerGas })
          return receipt
        }
        if (replacement >= MAX_REPLACEMENTS) break
        log.warn(
          { hash: accepted.hash, nonce, attempt: replacement },
          'bundle transaction not mined in time; replacing it with higher fees',
        )
        bumpFees()
        try {
          accepted = await sendWithNonce(nonce)
        } catch (err) {
          // The nonce is used: one of the transactions sent mined (its receipt is polled next) or another replaced it.
          if (!isNonceError(err)) {
            nonces.resync()
            throw err
          }
          accepted = { hash: accepted.hash, outcome: Promise.resolve(null) }
        }
      }
      // Still nothing: the next transaction reads the node's nonce, and the failure is reported.
      nonces.resync()
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
