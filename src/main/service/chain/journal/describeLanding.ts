import type { NodeRequest } from '../node/nodeRpcError'

type Block = { number: string; timestamp: string; transactions: string[] }
type Receipt = { transactionHash: string; blockNumber: string | null }

/**
 * Where a transaction the node just took landed: its hash, and the block that holds it with that block's
 * timestamp when it is mined already (anvil's automine usually has; interval mining has not). Replaying it at the
 * same timestamp keeps what depends on time (a paymaster signature's validity window) as it was. A failure to
 * read leaves the block out: the transaction is still journaled by its hash.
 */
export async function describeLanding(
  request: NodeRequest,
  result: unknown,
): Promise<{ hash?: string; block?: number; timestamp?: number }> {
  // eth_sendRawTransactionSync answers with the receipt.
  const hash = typeof result === 'string' ? result : (result as Receipt | null)?.transactionHash
  if (typeof hash !== 'string') return {}
  try {
    const head = (await request('eth_getBlockByNumber', ['latest', false])) as Block | null
    if (head?.transactions.includes(hash)) return { hash, ...blockOf(head) }
    const receipt = (await request('eth_getTransactionReceipt', [hash])) as Receipt | null
    if (!receipt?.blockNumber) return { hash }
    const block = (await request('eth_getBlockByNumber', [receipt.blockNumber, false])) as Block | null
    return block ? { hash, ...blockOf(block) } : { hash }
  } catch {
    return { hash }
  }
}

const blockOf = (block: Block) => ({ block: Number(block.number), timestamp: Number(block.timestamp) })
