/** Ready-to-paste client code for a dApp, filled with this service's URLs. */
export type SnippetInput = {
  bundlerUrl: string
  paymasterUrl: string
  rpcUrl: string
  chainId: number
}

export function biconomySnippet({ bundlerUrl, paymasterUrl, rpcUrl, chainId }: SnippetInput): string {
  return `import { createSmartAccountClient, PaymasterMode } from '@biconomy/account'
import { createWalletClient, defineChain, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const chain = defineChain({
  id: ${chainId},
  name: 'Opstation local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['${rpcUrl}'] } },
})
const signer = createWalletClient({
  account: privateKeyToAccount(process.env.OWNER_KEY as \`0x\${string}\`),
  chain,
  transport: http(),
})

const smartAccount = await createSmartAccountClient({
  signer,
  chainId: ${chainId},
  rpcUrl: '${rpcUrl}',
  bundlerUrl: '${bundlerUrl}',
  paymasterUrl: '${paymasterUrl}',
})

const { wait } = await smartAccount.sendTransaction(
  { to: '0x…contract', data: '0x…calldata' },
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

export function curlSnippet({ paymasterUrl }: Pick<SnippetInput, 'paymasterUrl'>): string {
  return `curl -s '${paymasterUrl}' -H 'content-type: application/json' -d '{
  "jsonrpc": "2.0", "id": 1, "method": "pm_sponsorUserOperation",
  "params": [
    { "sender": "0x…", "nonce": "0x0", "initCode": "0x", "callData": "0x…",
      "maxFeePerGas": "0x…", "maxPriorityFeePerGas": "0x…" },
    { "mode": "SPONSORED", "calculateGasLimits": true,
      "sponsorshipInfo": { "webhookData": {}, "smartAccountInfo": { "name": "BICONOMY", "version": "2.0.0" } } }
  ]
}'`
}
