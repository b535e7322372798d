/** Ready-to-paste client code for a dApp, filled with this service's URLs. */
export type SnippetInput = {
  bundlerUrl: string
  paymasterUrl: string
  rpcUrl: string
  chainId: number
}

/**
 * The Biconomy SDK v4 with a Smart Account v2 on EntryPoint v0.6: plain JavaScript that runs as pasted (`node
 * snippet.mjs` with @biconomy/account and viem installed) and sends one sponsored UserOperation that also deploys the
 * account.
 */
export function biconomySnippet({ bundlerUrl, paymasterUrl, rpcUrl, chainId }: SnippetInput): string {
  return `import { createSmartAccountClient, PaymasterMode } from '@biconomy/account'
import { createWalletClient, defineChain, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

const chain = defineChain({
  id: ${chainId},
  name: 'Opstation local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['${rpcUrl}'] } },
})
// A fresh owner key (use your user's signer in your dApp)
const owner = privateKeyToAccount(generatePrivateKey())
const signer = createWalletClient({ account: owner, chain, transport: http() })

const smartAccount = await createSmartAccountClient({
  signer,
  chainId: ${chainId},
  rpcUrl: '${rpcUrl}',
  bundlerUrl: '${bundlerUrl}',
  paymasterUrl: '${paymasterUrl}',
})

// The first transaction deploys the account too; this dApp's policies decide, its gas tank pays
const { wait } = await smartAccount.sendTransaction(
  { to: owner.address, data: '0x' },
  { paymasterServiceData: { mode: PaymasterMode.SPONSORED } },
)
const { success, receipt } = await wait()
console.log(success, receipt.transactionHash)
`
}

/**
 * viem's bundler and ERC-7677 paymaster clients with a SimpleAccount on EntryPoint v0.7 (permissionless): plain
 * JavaScript that runs as pasted (`node snippet.mjs` with viem and permissionless installed) and sends one sponsored
 * UserOperation that also deploys the account.
 */
export function viemSnippet({ bundlerUrl, paymasterUrl, rpcUrl, chainId }: SnippetInput): string {
  return `import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPublicClient, defineChain, http } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

const chain = defineChain({
  id: ${chainId},
  name: 'Opstation local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['${rpcUrl}'] } },
})
const client = createPublicClient({ chain, transport: http() })

// A SimpleAccount on EntryPoint v0.7 owned by a fresh key (use your user's signer in your dApp)
const owner = privateKeyToAccount(generatePrivateKey())
const account = await toSimpleSmartAccount({
  client,
  owner,
  entryPoint: { address: entryPoint07Address, version: '0.7' },
})

const bundler = createBundlerClient({
  client,
  account,
  transport: http('${bundlerUrl}'),
  // ERC-7677: this dApp's policies decide, its v0.7 gas tank pays
  paymaster: createPaymasterClient({ transport: http('${paymasterUrl}') }),
})

// The first operation deploys the account too
const hash = await bundler.sendUserOperation({ calls: [{ to: owner.address, value: 0n }] })
const receipt = await bundler.waitForUserOperationReceipt({ hash })
console.log(receipt.success, receipt.receipt.transactionHash)
`
}

/**
 * ERC-7677 stub data for a v0.7 UserOperation, by curl: runs as pasted and shows whether this dApp's policies sponsor
 * the operation (an error object naming the policy step when they do not).
 */
export function curlSnippet({
  paymasterUrl,
  chainId,
}: Pick<SnippetInput, 'paymasterUrl' | 'chainId'>): string {
  return `curl -s '${paymasterUrl}' -H 'content-type: application/json' -d '{
  "jsonrpc": "2.0", "id": 1, "method": "pm_getPaymasterStubData",
  "params": [
    { "sender": "0x1111111111111111111111111111111111111111", "nonce": "0x0", "callData": "0x",
      "maxFeePerGas": "0x3b9aca00", "maxPriorityFeePerGas": "0x3b9aca00" },
    "0x0000000071727De22E5E9d8BAf0edAc6f37da032", "0x${chainId.toString(16)}", { "mode": "SPONSORED" }
  ]
}'
`
}
