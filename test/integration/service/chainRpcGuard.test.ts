import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_BLOCKED_PORTS } from '../../../src/main/service/chain/anvil/findAnvilPort'
import { requestRaw } from '../../helpers/requestRaw'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => service?.dispose())

const EVIL = 'http://evil.example'
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params })
const someone = '0x00000000000000000000000000000000000bad01'

function chainRpc(body: unknown, headers: Record<string, string> = {}) {
  return requestJson(service.info().rpcUrl!, { method: 'POST', body, headers })
}

describe("the chain's JSON-RPC (rpcUrl): the node behind the service's guards", () => {
  it('is served by the service, and tools without an Origin (viem, cast) get every method', async () => {
    expect(service.info().rpcUrl).toBe(`${service.baseUrl}/rpc`)
    const client = createPublicClient({ transport: http(service.info().rpcUrl!) })
    expect(await client.getChainId()).toBe(31337)
    const set = await chainRpc(call('anvil_setBalance', [someone, '0x1234']))
    expect(set.body).toEqual({ jsonrpc: '2.0', id: 1, result: null })
    expect(await client.getBalance({ address: someone })).toBe(0x1234n)
    // A batch comes back as a batch, with the node's own error for what it does not know.
    const batch = await chainRpc([call('eth_chainId', [], 7), call('eth_nope', [], 8)])
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 7, result: '0x7a69' },
      {
        jsonrpc: '2.0',
        id: 8,
        error: expect.objectContaining({ message: expect.stringContaining('EthRpcCall') }),
      },
    ])
  })

  it('a web page of another origin may read the chain and send signed transactions, never control the node', async () => {
    const read = await chainRpc(call('eth_blockNumber'), { origin: EVIL })
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBe('*')
    for (const method of [
      'anvil_setBalance',
      'anvil_setCode',
      'anvil_impersonateAccount',
      'anvil_reset',
      'evm_mine',
      'evm_revert',
      'debug_traceCall',
      'hardhat_setBalance',
      'eth_sendTransaction',
      'eth_sign',
      'eth_accounts',
    ]) {
      const res = await chainRpc(call(method, [someone, parseEther('1').toString(16)]), { origin: EVIL })
      expect(res.status, method).toBe(403)
      expect(res.body.error.message).toBe(
        `${method} is not available to web pages of other origins on this chain RPC`,
      )
    }
    // One refused call refuses the whole batch: nothing of it reaches the node.
    const before = await chainRpc(call('eth_getBalance', [someone, 'latest']))
    const mixed = await chainRpc([call('eth_chainId'), call('anvil_setBalance', [someone, '0x1'], 2)], {
      origin: 'null',
    })
    expect(mixed.status).toBe(403)
    expect((await chainRpc(call('eth_getBalance', [someone, 'latest']))).body.result).toBe(before.body.result)
  })

  it("refuses a web page's simple text/plain POST, and a DNS-rebinding Host", async () => {
    const simple = await requestJson(service.info().rpcUrl!, {
      method: 'POST',
      rawBody: JSON.stringify(call('anvil_setBalance', [someone, '0x2'])),
      headers: { origin: EVIL, 'content-type': 'text/plain' },
    })
    expect(simple.status).toBe(415)
    expect(simple.body.error.message).toBe('Content-Type must be application/json')
    const port = new URL(service.baseUrl).port
    const rebound = await requestRaw(service.info().rpcUrl!, {
      body: JSON.stringify(call('anvil_setBalance', [someone, '0x3'])),
      headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
    })
    expect(rebound.status).toBe(403)
    expect((await chainRpc(call('eth_getBalance', [someone, 'latest']))).body.result).toBe('0x1234')
  })

  it("anvil's own HTTP port is one browsers (and fetch) refuse to connect to, and it sends no CORS headers", async () => {
    const port = service.chain!.anvil!.port
    expect(BROWSER_BLOCKED_PORTS).toContain(port)
    await expect(
      fetch(`http://127.0.0.1:${port}`, { method: 'POST', body: JSON.stringify(call('eth_chainId')) }),
    ).rejects.toThrow(/fetch failed/)
    const preflight = await requestRaw(`http://127.0.0.1:${port}`, {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    })
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })
})
