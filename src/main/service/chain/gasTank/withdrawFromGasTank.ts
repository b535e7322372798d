import { type Address, encodeFunctionData, type Hash, numberToHex } from 'viem'
import type { EntryPointVersion } from '../../../../shared/entryPointVersions'
import { ChainError, InvalidInputError, NotFoundError } from '../../errors'
import { fundEth } from '../faucet/fundEth'
import { requestRpc } from '../node/requestRpc'
import { submitTransaction } from '../transactions/submitTransaction'
import type { Chain } from '../types'
import { gasTankAbi, getGasTankPaymaster } from './gasTankPaymaster'
import { getGasTankBalance } from './getGasTankBalance'

const oneEth = 10n ** 18n

/**
 * Withdraws `wei` from the gas tank of `paymasterId` on EntryPoint `version` to `to`: `withdrawTo(to, wei)` sent by the paymasterId itself
 * (its key from keys.json; on dev nodes an unknown paymasterId is impersonated). The paymasterId EOA gets gas
 * money first if it has none. Returns the new balance.
 */
export async function withdrawFromGasTank(
  chain: Chain,
  paymasterId: Address,
  to: Address,
  wei: bigint,
  version: EntryPointVersion,
): Promise<{ hash: Hash; balance: bigint }> {
  if (wei <= 0n) throw new InvalidInputError('Withdrawal must be more than 0 wei')
  const current = await getGasTankBalance(chain, paymasterId, version)
  if (current < wei) {
    throw new InvalidInputError(
      `Gas tank ${paymasterId} (EntryPoint v${version}) holds ${current} wei, less than ${wei}`,
      {
        data: { balance: current.toString() },
      },
    )
  }
  const data = encodeFunctionData({ abi: gasTankAbi, functionName: 'withdrawTo', args: [to, wei] })
  const address = getGasTankPaymaster(chain, version)
  const gasMoney = chain.capabilities.isDev ? oneEth : oneEth / 100n
  if ((await chain.publicClient.getBalance({ address: paymasterId })) < gasMoney / 10n) {
    await fundEth(chain, paymasterId, gasMoney)
  }

  const account = chain.getPaymasterIdAccount(paymasterId)
  let hash: Hash
  if (account) {
    hash = await submitTransaction(chain, { from: account, to: address, data })
  } else if (chain.capabilities.devPrefix) {
    const prefix = chain.capabilities.devPrefix
    await requestRpc(chain.publicClient, `${prefix}_impersonateAccount`, [paymasterId])
    try {
      hash = await requestRpc<Hash>(chain.publicClient, 'eth_sendTransaction', [
        { from: paymasterId, to: address, data, gas: numberToHex(200_000) },
      ])
    } finally {
      await requestRpc(chain.publicClient, `${prefix}_stopImpersonatingAccount`, [paymasterId])
    }
  } else {
    throw new NotFoundError(
      `No key for paymasterId ${paymasterId}; only gas tanks created here can be withdrawn from`,
    )
  }
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success')
    throw new ChainError(`withdrawTo from ${paymasterId} reverted`, { data: { hash } })
  return { hash, balance: await getGasTankBalance(chain, paymasterId, version) }
}
