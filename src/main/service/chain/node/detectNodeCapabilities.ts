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

/** A node without a method answers -32601 or says so in words; any other error means the method is there. */
const METHOD_MISSING =
  /method.*(not found|not supported|does not exist|not available|unsupported)|unknown method/i

async function servesMethod(client: PublicClient, method: string, params: unknown[]): Promise<boolean> {
  try {
    await requestRpc(client, method, params)
    return true
  } catch (err) {
    return !isMethodMissing(err)
  }
}

/** The node's error says it does not serve the method (-32601, or in words). */
export function isMethodMissing(err: unknown): boolean {
  return collectCodes(err).includes(-32601) || METHOD_MISSING.test(String((err as Error).message ?? ''))
}

/** The JSON-RPC codes on an error and its causes (viem wraps the node's error). */
function collectCodes(err: unknown): number[] {
  const codes: number[] = []
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'number') codes.push(e.code)
    if (codes.length > 8) break
  }
  return codes
}

/**
 * Finds out whether the node is a dev node: anvil (`anvil_nodeInfo`), hardhat/EDR (`hardhat_metadata`),
 * or any node on chain id 31337/1337 (e.g. geth --dev, which has no set-code methods), and whether it serves
 * `eth_sendRawTransactionSync`.
 */
export async function detectNodeCapabilities(
  client: PublicClient,
  chainId: number,
): Promise<NodeCapabilities> {
  const clientVersion = await requestRpc<string>(client, 'web3_clientVersion').catch(() => 'unknown')
  let devPrefix: NodeCapabilities['devPrefix'] = null
  if (await answers(client, 'anvil_nodeInfo')) devPrefix = 'anvil'
  else if (await answers(client, 'hardhat_metadata')) devPrefix = 'hardhat'
  // An undecodable transaction: a node with the method rejects it, one without says the method is missing.
  const sendRawTransactionSync = await servesMethod(client, 'eth_sendRawTransactionSync', ['0x00'])
  return {
    isDev: devPrefix !== null || devChainIds.has(chainId),
    devPrefix,
    clientVersion,
    sendRawTransactionSync,
  }
}
