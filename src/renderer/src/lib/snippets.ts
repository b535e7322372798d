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

export function viemSnippet({ bundlerUrl, paymasterUrl, rpcUrl, chainId }: SnippetInput): string {
  return `import { createPublicClient, defineChain, http } from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'

const chain = defineChain({
  id: ${chainId},
  name: 'Opstation local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['${rpcUrl}'] } },
})
const client = createPublicClient({ chain, transport: http() })
const bundler = createBundlerClient({ client, transport: http('${bundlerUrl}') })

// Ask the paymaster to sponsor a (partial) UserOperation, the way the Biconomy SDK does
const sponsor = await fetch('${paymasterUrl}', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'pm_sponsorUserOperation',
    params: [userOperation, { mode: 'SPONSORED', calculateGasLimits: true,
      sponsorshipInfo: { webhookData: {}, smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' } } }],
  }),
}).then((r) => r.json())

// … sign the op with the account owner, then:
const hash = await bundler.request({
  method: 'eth_sendUserOperation',
  params: [{ ...userOperation, ...sponsor.result, signature }, '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'],
})
const receipt = await bundler.waitForUserOperationReceipt({ hash })
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
