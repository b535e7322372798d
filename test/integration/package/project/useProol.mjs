// The prool instance from the installed package. prool's Server pools two Opstations (started by key on first use);
// each is set up with the same dApp apiKey, so its bundler and paymaster URLs are known under the url prool reports,
// and a UserOperation is sponsored through instance 1. Then one instance on its own, typed `_internal.opstation`.

import { opstation } from 'opstation/prool'
import { Server } from 'prool'
import { sendSponsoredUserOperation } from './sendSponsored.mjs'

const apiKey = 'PackTest1.0e6e2c1a-3b7d-4f6a-9c1e-5d2b8a7f4e30'
const server = Server.create({
  instance: opstation({ setup: { version: 1, dapps: [{ name: 'pooled', apiKey }] } }),
  host: '127.0.0.1',
  port: 0,
})
const stopServer = await server.start()
const base = `http://127.0.0.1:${server.address().port}`
const blockNumber = (url) =>
  fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })
    .then((response) => response.json())
    .then((body) => Number(body.result))
let result
try {
  const [one, two] = await Promise.all([1, 2].map((id) => fetch(`${base}/${id}/start`).then((r) => r.json())))
  const before = await Promise.all([blockNumber(one.url), blockNumber(two.url)])
  const sponsored = await sendSponsoredUserOperation({
    rpcUrl: `${one.url}/rpc`,
    bundlerUrl: `${one.url}/api/v2/31337/${apiKey}`,
    paymasterUrl: `${one.url}/api/v1/31337/${apiKey}`,
  })
  const after = await Promise.all([blockNumber(one.url), blockNumber(two.url)])
  result = { urls: [one.url, two.url], sponsored, minedOn: after.map((n, i) => n > before[i]) }
} finally {
  await stopServer()
}
const stillServing = await Promise.all(
  result.urls.map((url) =>
    fetch(`${url}/health`).then(
      () => true,
      () => false,
    ),
  ),
)

const instance = opstation()
await instance.start()
const single = {
  status: instance.status,
  bundlerUnderUrl: instance._internal.opstation.bundlerUrl.startsWith(instance.url),
}
await instance.stop()
console.log(
  JSON.stringify({ ...result, stillServing, single, stoppedHandle: instance._internal.opstation ?? null }),
)
