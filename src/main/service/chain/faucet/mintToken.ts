import { type Address, encodeFunctionData, type Hash } from 'viem'
import { ChainError } from '../../errors'
import { testTokenAbi } from '../abis/testToken'
import { submitTransaction } from '../transactions/submitTransaction'
import type { Chain } from '../types'

/** Mints `amount` base units of a test token to `to` (open `mint`; the executor sends it). */
export async function mintToken(chain: Chain, token: Address, to: Address, amount: bigint): Promise<Hash> {
  const hash = await submitTransaction(chain, {
    to: token,
    data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new ChainError(`mint on ${token} reverted`, { data: { hash } })
  return hash
}
