import { encodeFunctionData, parseAbi } from 'viem'
import { errorMessage } from '../../api/http'
import { rpcRequest } from '../../api/rpc'
import type { ReplayFields } from './useReplayStore'

const GET_NONCE = parseAbi(['function getNonce(address sender, uint192 key) view returns (uint256)'])

/** What the chain says now about the operation's sender: its next nonce in the operation's key, and whether it has code. */
export type SenderState = { nonce: bigint; deployed: boolean }

/** Whether the fields deploy the account: a factory (v0.7+, not the EIP-7702 marker) or an initCode (v0.6). */
function deploys(fields: ReplayFields): boolean {
  const factory = fields.factory?.trim()
  if (factory && factory !== '0x' && factory.toLowerCase() !== '0x7702') return true
  const initCode = fields.initCode?.trim()
  return Boolean(initCode && initCode !== '0x')
}

/**
 * The fields as the chain is now: the sender's next nonce, and no deployment when the account already has code
 * (an operation sent once used its nonce, and deployed its account). Says what it changed, in words.
 */
export function withSenderState(
  fields: ReplayFields,
  state: SenderState,
): { fields: ReplayFields; changes: string[] } {
  const next = { ...fields }
  const changes: string[] = []
  const nonce = `0x${state.nonce.toString(16)}`
  if (fields.nonce !== undefined && BigInt(fields.nonce || '0') !== state.nonce) {
    next.nonce = nonce
    changes.push(`nonce ${fields.nonce} → ${nonce} (the sender's next)`)
  }
  if (state.deployed && deploys(fields)) {
    if ('initCode' in next) next.initCode = '0x'
    else {
      delete next.factory
      delete next.factoryData
    }
    changes.push('no deployment: the account has code now')
  }
  return { fields: next, changes }
}

/** Reads the sender's next nonce (EntryPoint.getNonce with the operation's key) and code through the bundler. */
export async function readSenderState(
  bundlerUrl: string,
  entryPoint: string,
  fields: ReplayFields,
): Promise<SenderState> {
  const sender = fields.sender as `0x${string}`
  const key = BigInt(fields.nonce || '0') >> 64n
  const [nonce, code] = await Promise.all([
    rpcRequest<string>(bundlerUrl, 'eth_call', [
      {
        to: entryPoint,
        data: encodeFunctionData({ abi: GET_NONCE, functionName: 'getNonce', args: [sender, key] }),
      },
      'latest',
    ]),
    rpcRequest<string | null>(bundlerUrl, 'eth_getCode', [sender, 'latest']),
  ])
  return { nonce: BigInt(nonce), deployed: Boolean(code && code !== '0x') }
}

/** The fields brought up to date with the chain; when the chain cannot be read, the fields unchanged and why. */
export async function bringUpToDate(
  bundlerUrl: string,
  entryPoint: string,
  fields: ReplayFields,
): Promise<{ fields: ReplayFields; changes: string[] }> {
  try {
    return withSenderState(fields, await readSenderState(bundlerUrl, entryPoint, fields))
  } catch (err) {
    return { fields, changes: [`the sender's nonce and code could not be read: ${errorMessage(err)}`] }
  }
}
