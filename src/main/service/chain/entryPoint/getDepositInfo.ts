import type { Address } from 'viem'
import { entryPointAbi } from '../abis/entryPoint'
import type { Chain } from '../types'

export type DepositInfo = {
  deposit: bigint
  staked: boolean
  stake: bigint
  unstakeDelaySec: number
  withdrawTime: number
}

/** `EntryPoint.getDepositInfo(account)`: deposit and stake of an account, paymaster or factory. */
export async function getDepositInfo(
  chain: Chain,
  account: Address,
  entryPoint: Address = chain.addresses.entryPoint,
): Promise<DepositInfo> {
  const info = await chain.publicClient.readContract({
    address: entryPoint,
    abi: entryPointAbi,
    functionName: 'getDepositInfo',
    args: [account],
  })
  return {
    deposit: info.deposit,
    staked: info.staked,
    stake: info.stake,
    unstakeDelaySec: info.unstakeDelaySec,
    withdrawTime: info.withdrawTime,
  }
}

/** `EntryPoint.balanceOf(account)`: the account's EntryPoint deposit in wei. */
export function getEntryPointBalance(chain: Chain, account: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.addresses.entryPoint,
    abi: entryPointAbi,
    functionName: 'balanceOf',
    args: [account],
  })
}
