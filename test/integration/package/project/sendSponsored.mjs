// Sends one sponsored EntryPoint v0.7 UserOperation with viem's bundler and paymaster clients (a SimpleAccount from
// permissionless), as a dApp does, and waits for its receipt.
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPublicClient, defineChain, http } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

export async function sendSponsoredUserOperation({ rpcUrl, bundlerUrl, paymasterUrl }) {
  const id = await createPublicClient({ transport: http(rpcUrl) }).getChainId()
  const chain = defineChain({
    id,
    name: 'Opstation',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const client = createPublicClient({ chain, transport: http(rpcUrl) })
  const account = await toSimpleSmartAccount({
    client,
    owner: privateKeyToAccount(generatePrivateKey()),
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
  const bundler = createBundlerClient({
    client,
    account,
    paymaster: createPaymasterClient({ transport: http(paymasterUrl) }),
    transport: http(bundlerUrl),
    pollingInterval: 100,
  })
  const hash = await bundler.sendUserOperation({
    calls: [{ to: privateKeyToAccount(generatePrivateKey()).address, value: 0n }],
  })
  const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  return { success: receipt.success, sender: account.address, paymaster: receipt.paymaster }
}
