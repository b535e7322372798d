import { createWalletClient, custom } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type Chain, fundEth } from '../../src/main/service/chain'

/**
 * A wallet of the test's own on the chain, funded with `wei` (set directly on the dev chain, no transaction): what a
 * test deploys and transacts with. Never the service's executor: its transactions take their nonces from the
 * service's nonce manager, and a test transaction from the same account races the bundles ("nonce too low", blocks
 * mined that the test did not expect).
 */
export async function createFundedWallet(chain: Chain, wei = 100_000n * 10n ** 18n) {
  const account = privateKeyToAccount(generatePrivateKey())
  await fundEth(chain, account.address, wei)
  return createWalletClient({
    account,
    chain: chain.publicClient.chain,
    transport: custom(chain.publicClient),
  })
}

export type FundedWallet = Awaited<ReturnType<typeof createFundedWallet>>
