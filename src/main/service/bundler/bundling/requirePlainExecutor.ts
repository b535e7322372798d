import type { Address } from 'viem'
import type { Chain } from '../../chain/types'
import { ChainError } from '../../errors'

/**
 * The bundle sender must be a plain EOA: EntryPoint v0.9 takes handleOps only where `tx.origin == msg.sender` and the
 * sender has no code, so an executor key carrying an EIP-7702 delegation (or any code) could never bundle. Read at
 * start and before every bundle; refused with what to do.
 */
export async function requirePlainExecutor(chain: Pick<Chain, 'publicClient' | 'executor'>): Promise<void> {
  const address: Address = chain.executor.address
  const code = (await chain.publicClient.getCode({ address })) ?? '0x'
  if (code === '0x') return
  const delegation = code.toLowerCase().startsWith('0xef0100')
    ? `an EIP-7702 delegation to 0x${code.slice(8, 48)}`
    : 'code'
  throw new ChainError(
    `The executor ${address} carries ${delegation}; EntryPoint v0.9 takes bundles only from a plain EOA: use an executor key without code, or clear its delegation (an authorization to the zero address)`,
  )
}
