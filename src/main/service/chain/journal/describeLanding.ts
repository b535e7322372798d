import type { NodeRequest } from '../node/nodeRpcError'

type Block = { number: string; timestamp: string; transactions: string[] }
type Receipt = { transactionHash: string; blockNumber: string | null }

/**
 * The block that holds a transaction the node just took, with its timestamp, once it is mined (anvil's automine
 * has, or very soon; interval mining may take a block time: then nothing). Replaying it at the same timestamp keeps
 * what depends on time (a paymaster signature's validity window) as it was.
 */
export async function describeLanding(
  request: NodeRequest,
  hash: string,
): Promise<{ block: number; timestamp: number } | undefined> {
  try {
    const head = (await request('eth_getBlockByNumber', ['latest', false])) as Block | null
    if (head?.transactions.includes(hash)) return blockOf(head)
    const receipt = (await request('eth_getTransactionReceipt', [hash])) as Receipt | null
    if (!receipt?.blockNumber) return undefined
    const block = (await request('eth_getBlockByNumber', [receipt.blockNumber, false])) as Block | null
    return block ? blockOf(block) : undefined
  } catch {
    return undefined
  }
}

const blockOf = (block: Block) => ({ block: Number(block.number), timestamp: Number(block.timestamp) })
