import type { PublicClient } from 'viem'
import type { Logger } from '../../log'
import { entryPointAbi } from '../abis/entryPoint'
import { smartAccountFactoryAbi } from '../abis/smartAccount'
import { tokenPaymasterAbi } from '../abis/tokenPaymaster'
import { verifyingPaymasterAbi } from '../abis/verifyingPaymaster'
import { defaults } from '../constants'
import type { ChainAddresses, ExecutorClient } from '../types'

export type EnsureStakesAndDepositsParameters = {
  publicClient: PublicClient
  executor: ExecutorClient
  addresses: ChainAddresses
  /** Contract names not to touch (missing or mismatched). */
  skip: Set<string>
  log: Logger
}

/**
 * Dev chains only (it spends the executor's ETH): stakes both paymasters and the SA v2 factory on the EntryPoint
 * (1 ETH, unstake delay 1 day, as ERC-7562 wants for entities that keep storage) and tops up the token
 * paymaster's own deposit. The verifying paymaster's deposit is the sum of its gas tanks (`depositFor`).
 */
export async function ensureStakesAndDeposits(p: EnsureStakesAndDepositsParameters): Promise<void> {
  const { entryPoint } = p.addresses
  const info = (account: `0x${string}`) =>
    p.publicClient.readContract({
      address: entryPoint,
      abi: entryPointAbi,
      functionName: 'getDepositInfo',
      args: [account],
    })
  const needsStake = (i: { staked: boolean; stake: bigint; unstakeDelaySec: number }) =>
    !i.staked || i.stake < defaults.stakeWei || i.unstakeDelaySec < defaults.unstakeDelaySec

  const hashes: `0x${string}`[] = []
  for (const [name, address, abi] of [
    ['verifyingPaymaster', p.addresses.verifyingPaymaster, verifyingPaymasterAbi],
    ['tokenPaymaster', p.addresses.tokenPaymaster, tokenPaymasterAbi],
  ] as const) {
    if (p.skip.has(name)) continue
    const i = await info(address)
    if (needsStake(i)) {
      hashes.push(
        await p.executor.writeContract({
          address,
          abi,
          functionName: 'addStake',
          args: [defaults.unstakeDelaySec],
          value: defaults.stakeWei,
        }),
      )
    }
    if (name === 'tokenPaymaster' && i.deposit < defaults.tokenPaymasterDepositWei / 2n) {
      hashes.push(
        await p.executor.writeContract({
          address,
          abi: tokenPaymasterAbi,
          functionName: 'deposit',
          value: defaults.tokenPaymasterDepositWei - i.deposit,
        }),
      )
    }
  }
  if (!p.skip.has('smartAccountFactory')) {
    const i = await info(p.addresses.smartAccountFactory)
    if (needsStake(i)) {
      hashes.push(
        await p.executor.writeContract({
          address: p.addresses.smartAccountFactory,
          abi: smartAccountFactoryAbi,
          functionName: 'addStake',
          args: [entryPoint, defaults.unstakeDelaySec],
          value: defaults.stakeWei,
        }),
      )
    }
  }
  for (const hash of hashes) {
    const receipt = await p.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success') p.log.warn({ hash }, 'stake/deposit transaction reverted')
  }
}
