// The programmatic API from the installed package: two instances side by side, a dApp made by createDapp, a
// UserOperation it sponsors, and stop() removing the data folders it made.
import { existsSync } from 'node:fs'
import { startOpstation } from 'opstation'
import { sendSponsoredUserOperation } from './sendSponsored.mjs'

const [a, b] = await Promise.all([startOpstation(), startOpstation()])
let result
try {
  const dapp = await a.createDapp({ name: 'from-api' })
  const sponsored = await sendSponsoredUserOperation({
    rpcUrl: a.rpcUrl,
    bundlerUrl: a.bundlerUrl,
    paymasterUrl: dapp.paymasterUrl,
  })
  result = {
    ...sponsored,
    chainId: a.chainId,
    distinct: a.dashboardUrl !== b.dashboardUrl,
    verifyingPaymasterV07: a.addresses.verifyingPaymasterV07,
    console: (await fetch(a.consoleUrl)).status,
  }
} finally {
  await Promise.all([a.stop(), b.stop()])
}
console.log(JSON.stringify({ ...result, dataDirsLeft: [a.dataDir, b.dataDir].filter(existsSync).length }))
