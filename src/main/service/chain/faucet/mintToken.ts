import type { Address, Hash } from 'viem'
import { ChainError } from '../../errors'
import { testTokenAbi } from '../abis/testToken'
import type { Chain } from '../types'

/** Mints `amount` base units of a test token to `to` (open `mint`; the executor sends it). */
export async function mintToken(chain: Chain, token: Address, to: Address, amount: bigint): Promise<Hash> {
  const hash = await chain.executor.client.writeContract({
    address: token,
    abi: testTokenAbi,
    functionName: 'mint',
    args: [to, amount],
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new ChainError(`mint on ${token} reverted`, { data: { hash } })
  return hash
}
