import { type Address, encodeFunctionData, type PublicClient } from 'viem'
import type { Logger } from '../../log/logger'
import { entryPointAbi } from '../abis/entryPoint'
import { smartAccountFactoryAbi } from '../abis/smartAccount'
import { defaults } from '../constants'
import type { SubmitTransaction } from '../transactions/submitTransaction'
import type { ChainAddresses } from '../types'
import { ENTRY_POINT_VERSIONS, getVersionContracts, VERSION_CONTRACTS } from '../versionContracts'

export type EnsureStakesAndDepositsParameters = {
  publicClient: PublicClient
  /** Sends from the executor through its nonce manager. */
  submit: SubmitTransaction
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
  // Each version's two paymasters, with the ABI of their contract (Biconomy's for v0.6, Opstation's after).
  const paymasters = ENTRY_POINT_VERSIONS.flatMap((version) => {
    const c = getVersionContracts(p, version)
    const { verifyingAbi, tokenAbi } = VERSION_CONTRACTS[version]
    return [
      { ...c.verifying, abi: verifyingAbi, token: false },
      { ...c.token, abi: tokenAbi, token: true },
    ].map((paymaster) => ({ ...paymaster, entryPoint: c.entryPoint }))
  })
  for (const { name, address, abi, entryPoint: onEntryPoint, token } of paymasters) {
    if (p.skip.has(name) || p.skip.has(onEntryPoint.name)) continue
    const i = await info(address, onEntryPoint.address)
    if (needsStake(i)) {
      hashes.push(
        await p.submit({
          to: address,
          data: encodeFunctionData({ abi, functionName: 'addStake', args: [defaults.unstakeDelaySec] }),
          value: defaults.stakeWei,
        }),
      )
    }
    if (token && i.deposit < defaults.tokenPaymasterDepositWei / 2n) {
      hashes.push(
        await p.submit({
          to: address,
          data: encodeFunctionData({ abi, functionName: 'deposit' }),
          value: defaults.tokenPaymasterDepositWei - i.deposit,
        }),
      )
    }
  }
  if (!p.skip.has('smartAccountFactory')) {
    const i = await info(p.addresses.smartAccountFactory)
    if (needsStake(i)) {
      hashes.push(
        await p.submit({
          to: p.addresses.smartAccountFactory,
          data: encodeFunctionData({
            abi: smartAccountFactoryAbi,
            functionName: 'addStake',
            args: [entryPoint, defaults.unstakeDelaySec],
          }),
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
