import { type Address, createWalletClient, custom, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type Chain, fundEth } from '../../src/main/service/chain'

/**
 * A wallet of the test's own on the chain, funded with `wei` (set directly on the dev chain, no transaction): what a
 * test deploys and transacts with. Never the service's executor: its transactions take their nonces from the
 * service's nonce manager, and a test transaction from the same account races the bundles ("nonce too low", blocks
 * mined that the test did not expect). `transact` sends a transaction, waits for it and throws when it reverts.
 */
export async function createFundedWallet(chain: Chain, wei = 100_000n * 10n ** 18n) {
  const account = privateKeyToAccount(generatePrivateKey())
  await fundEth(chain, account.address, wei)
  return createWalletClient({
    account,
    chain: chain.publicClient.chain,
    transport: custom(chain.publicClient),
  }).extend((wallet) => ({
    async transact(to: Address, { value = 0n, data = '0x' }: { value?: bigint; data?: Hex } = {}) {
      const hash = await wallet.sendTransaction({ to, value, data } as never)
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error(`the transaction to ${to} reverted`)
    },
  }))
}

export type FundedWallet = Awaited<ReturnType<typeof createFundedWallet>>
