import type { Address, Hash } from 'viem'
import { ChainError, InvalidInputError } from '../../errors'
import { ensureExecutorBalance } from '../faucet/fundEth'
import type { Chain } from '../types'
import { type GasTankVersion, gasTankAbi, getGasTankPaymaster } from './gasTankPaymaster'
import { getGasTankBalance } from './getGasTankBalance'

/**
 * Adds `wei` to the gas tank of `paymasterId` on EntryPoint `version`: the executor calls `depositFor(paymasterId)`
 * on that version's verifying paymaster, which forwards the ETH to its EntryPoint deposit. Returns the new balance.
 */
export async function depositToGasTank(
  chain: Chain,
  paymasterId: Address,
  wei: bigint,
  version: GasTankVersion = '0.6',
): Promise<{ hash: Hash; balance: bigint }> {
  if (wei <= 0n) throw new InvalidInputError('Deposit must be more than 0 wei')
  await ensureExecutorBalance(chain, wei)
  const hash = await chain.executor.client.writeContract({
    address: getGasTankPaymaster(chain, version),
    abi: gasTankAbi,
    functionName: 'depositFor',
    args: [paymasterId],
    value: wei,
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success')
    throw new ChainError(`depositFor(${paymasterId}) reverted`, { data: { hash } })
  return { hash, balance: await getGasTankBalance(chain, paymasterId, version) }
}
