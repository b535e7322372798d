import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { createDapp } from '../paymaster/paymasterTestKit'

let service: TestService
let dappBundlerUrl: string
beforeAll(async () => {
  service = await startTestService()
  const dapp = await createDapp(service)
  dappBundlerUrl = `${service.baseUrl}/api/v2/31337/${dapp.apiKey}`
})
afterAll(async () => service?.dispose())

const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params })

describe('bundler admin methods (debug_bundler_*) need proof, not a public dApp apiKey', () => {
  it('refuses them at a dApp apiKey, from any origin', async () => {
    for (const method of [
      'debug_bundler_clearMempool',
      'debug_bundler_setBundlingMode',
      'debug_bundler_dumpMempool',
    ]) {
      const res = await requestJson(dappBundlerUrl, { method: 'POST', body: call(method, ['manual']) })
      expect(res.body.error.code, method).toBe(-32001)
      expect(res.body.error.message).toMatch(new RegExp(`^${method} is an admin method`))
    }
    expect(service.runtime.bundlingMode).toBe('auto')
  })

  it('serves them at the bundler key, or at a dApp apiKey with the authToken header', async () => {
    const viaKey = await requestJson(service.info().bundlerUrl, {
      method: 'POST',
      body: call('debug_bundler_dumpMempool', ['0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789']),
    })
    expect(viaKey.body.result).toEqual([])
    const viaToken = await requestJson(dappBundlerUrl, {
      method: 'POST',
      headers: { authToken: service.authToken() },
      body: call('debug_bundler_clearMempool'),
    })
    expect(viaToken.body.result).toBe('ok')
  })

  it('refuses them to a web page of another origin even with the bundler key; other methods stay open to it', async () => {
    const admin = await requestJson(service.info().bundlerUrl, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
      body: call('debug_bundler_setBundlingMode', ['manual']),
    })
    expect(admin.body.error.code).toBe(-32001)
    expect(service.runtime.bundlingMode).toBe('auto')
    const open = await requestJson(dappBundlerUrl, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
      body: call('eth_supportedEntryPoints'),
    })
    expect(open.body.result).toContain('0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789')
  })

  it("refuses a web page's cross-site simple text/plain POST, while tools without an Origin may send one", async () => {
    for (const url of [service.info().bundlerUrl, dappBundlerUrl]) {
      const res = await requestJson(url, {
        method: 'POST',
        rawBody: JSON.stringify(call('debug_bundler_setBundlingMode', ['manual'])),
        headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      })
      expect(res.status).toBe(200) // no Accept: application/json, so the error rides in a 200 (chooseHttpStatus)
      expect(res.body.error).toMatchObject({ code: -32600, message: 'Content-Type must be application/json' })
    }
    expect(service.runtime.bundlingMode).toBe('auto')
    const curl = await requestJson(service.info().bundlerUrl, {
      method: 'POST',
      rawBody: JSON.stringify(call('eth_chainId')),
      headers: { 'content-type': 'text/plain' },
    })
    expect(curl.body.result).toBe('0x7a69')
  })
})
