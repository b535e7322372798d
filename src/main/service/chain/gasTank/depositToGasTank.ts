import { type Address, encodeFunctionData, type Hash } from 'viem'
import type { EntryPointVersion } from '../../../../shared/entryPointVersions'
import { ChainError, InvalidInputError } from '../../errors'
import { getDepositInfo } from '../entryPoint/getDepositInfo'
import { ensureExecutorBalance } from '../faucet/fundEth'
import { submitTransaction } from '../transactions/submitTransaction'
import type { Chain } from '../types'
import { getVersionContracts } from '../versionContracts'
import { gasTankAbi, getGasTankPaymaster } from './gasTankPaymaster'
import { getGasTankBalance } from './getGasTankBalance'

/** Largest EntryPoint deposit (a uint112 in DepositInfo). */
const MAX_ENTRY_POINT_DEPOSIT = (1n << 112n) - 1n

/**
 * Adds `wei` to the gas tank of `paymasterId` on EntryPoint `version`: the executor calls `depositFor(paymasterId)`
 * on that version's verifying paymaster, which forwards the ETH to its EntryPoint deposit. Returns the new balance.
 */
export async function depositToGasTank(
  chain: Chain,
  paymasterId: Address,
  wei: bigint,
  version: EntryPointVersion,
): Promise<{ hash: Hash; balance: bigint }> {
  if (wei <= 0n) throw new InvalidInputError('Deposit must be more than 0 wei')
  // The paymaster keeps every tank in its one EntryPoint deposit, a uint112 (v0.6's layout): past it depositFor reverts.
  const contracts = getVersionContracts(chain, version)
  const { deposit } = await getDepositInfo(chain, contracts.verifying.address, contracts.entryPoint.address)
  if (deposit + wei > MAX_ENTRY_POINT_DEPOSIT)
    throw new InvalidInputError(
      `Deposit too large: the EntryPoint v${version} deposit of the verifying paymaster would pass 2^112 - 1 wei`,
    )
  await ensureExecutorBalance(chain, wei)
  const hash = await submitTransaction(chain, {
    to: getGasTankPaymaster(chain, version),
    data: encodeFunctionData({ abi: gasTankAbi, functionName: 'depositFor', args: [paymasterId] }),
    value: wei,
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success')
    throw new ChainError(`depositFor(${paymasterId}) reverted`, { data: { hash } })
  return { hash, balance: await getGasTankBalance(chain, paymasterId, version) }
}
