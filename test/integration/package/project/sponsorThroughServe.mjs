// Against a running `opstation serve` (its ready line's JSON in argv[2]): creates a dApp through the dashboard API
// and sends a UserOperation it sponsors.
import { sendSponsoredUserOperation } from './sendSponsored.mjs'

const ready = JSON.parse(process.argv[2])
const response = await fetch(`${ready.dashboardUrl}/api/v2/public/sdk/paymaster`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authToken: ready.authToken },
  body: JSON.stringify({ name: 'from-serve', type: 'HYBRID', chainId: ready.chainId, version: '1.1.0' }),
})
const { data } = await response.json()
const paymasterUrl = ready.paymasterUrlTemplate.replace('{apiKey}', data.apiKey)
const result = await sendSponsoredUserOperation({
  rpcUrl: ready.rpcUrl,
  bundlerUrl: ready.bundlerUrl,
  paymasterUrl,
})
console.log(JSON.stringify(result))
