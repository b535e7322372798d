import type { PublicClient } from 'viem'
import type { NodeCapabilities } from '../types'
import { requestRpc } from './requestRpc'

const devChainIds = new Set([31337, 1337])

async function answers(client: PublicClient, method: string, params: unknown[] = []): Promise<boolean> {
  try {
    await requestRpc(client, method, params)
    return true
  } catch {
    return false
  }
}

/**
 * Finds out whether the node is a dev node: anvil (`anvil_nodeInfo`), hardhat/EDR (`hardhat_metadata`),
 * or any node on chain id 31337/1337 (e.g. geth --dev, which has no set-code methods).
 */
export async function detectNodeCapabilities(
  client: PublicClient,
  chainId: number,
): Promise<NodeCapabilities> {
  const clientVersion = await requestRpc<string>(client, 'web3_clientVersion').catch(() => 'unknown')
  let devPrefix: NodeCapabilities['devPrefix'] = null
  if (await answers(client, 'anvil_nodeInfo')) devPrefix = 'anvil'
  else if (await answers(client, 'hardhat_metadata')) devPrefix = 'hardhat'
  return { isDev: devPrefix !== null || devChainIds.has(chainId), devPrefix, clientVersion }
}
