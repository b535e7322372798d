import type { Abi, Address, PublicClient } from 'viem'
import type { Logger } from '../../log'
import { entryPointAbi } from '../abis/entryPoint'
import { packedTokenPaymasterAbi, packedVerifyingPaymasterAbi } from '../abis/packedPaymasters'
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
 * Dev chains only (it spends the executor's ETH): stakes the paymasters of every EntryPoint and the SA v2 factory
 * (1 ETH, unstake delay 1 day, as ERC-7562 wants for entities that keep storage) and tops up the token
 * paymasters' own deposits. A verifying paymaster's deposit is the sum of its gas tanks (`depositFor`).
 */
export async function ensureStakesAndDeposits(p: EnsureStakesAndDepositsParameters): Promise<void> {
  const { entryPoint } = p.addresses
  // getDepositInfo has the same selector and result layout in v0.6, v0.7 and v0.8.
  const info = (account: Address, onEntryPoint: Address = entryPoint) =>
    p.publicClient.readContract({
      address: onEntryPoint,
      abi: entryPointAbi,
      functionName: 'getDepositInfo',
      args: [account],
    })
  const needsStake = (i: { staked: boolean; stake: bigint; unstakeDelaySec: number }) =>
    !i.staked || i.stake < defaults.stakeWei || i.unstakeDelaySec < defaults.unstakeDelaySec

  const hashes: `0x${string}`[] = []
  const a = p.addresses
  const paymasters: [
    name: string,
    address: Address,
    abi: Abi,
    entryPoint: Address,
    entryPointName: string,
  ][] = [
    ['verifyingPaymaster', a.verifyingPaymaster, verifyingPaymasterAbi, a.entryPoint, 'entryPoint'],
    ['tokenPaymaster', a.tokenPaymaster, tokenPaymasterAbi, a.entryPoint, 'entryPoint'],
    [
      'verifyingPaymasterV07',
      a.verifyingPaymasterV07,
      packedVerifyingPaymasterAbi,
      a.entryPointV07,
      'entryPointV07',
    ],
    ['tokenPaymasterV07', a.tokenPaymasterV07, packedTokenPaymasterAbi, a.entryPointV07, 'entryPointV07'],
    [
      'verifyingPaymasterV08',
      a.verifyingPaymasterV08,
      packedVerifyingPaymasterAbi,
      a.entryPointV08,
      'entryPointV08',
    ],
    ['tokenPaymasterV08', a.tokenPaymasterV08, packedTokenPaymasterAbi, a.entryPointV08, 'entryPointV08'],
  ]
  for (const [name, address, abi, onEntryPoint, entryPointName] of paymasters) {
    if (p.skip.has(name) || p.skip.has(entryPointName)) continue
    const i = await info(address, onEntryPoint)
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
    if (name.startsWith('tokenPaymaster') && i.deposit < defaults.tokenPaymasterDepositWei / 2n) {
      hashes.push(
        await p.executor.writeContract({
          address,
          abi,
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
