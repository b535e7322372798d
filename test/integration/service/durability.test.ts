import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { requestJson, startTestService } from '../../helpers/startTestService'

const ABI = JSON.stringify([
  { type: 'function', name: 'go', stateMutability: 'nonpayable', inputs: [], outputs: [] },
])

function addressFor(i: number) {
  return `0x${(i + 1).toString(16).padStart(40, '0')}`
}

describe('store durability', () => {
  it('200 concurrent smart contract creates from parallel clients are each stored exactly once', async () => {
    const service = await startTestService({ noChain: true })
    try {
      const authToken = service.authToken()
      const sdk = (p: string) => `${service.baseUrl}/api/v2/public/sdk/${p}`
      const created = await requestJson(sdk('paymaster'), {
        method: 'POST',
        headers: { authToken },
        body: { name: 'load', type: 'HYBRID', chainId: 31337, version: '1' },
      })
      const headers = { authToken, apiKey: created.body.data.apiKey }
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          requestJson(sdk('smart-contract'), {
            method: 'POST',
            headers,
            body: { name: `c${i}`, address: addressFor(i), abi: ABI },
          }),
        ),
      )
      expect(results.map((r) => r.status)).toEqual(Array(200).fill(200))
      const list = await requestJson(sdk('smart-contract'), { headers })
      expect(list.body.data).toHaveLength(200)
      const onDisk = JSON.parse(await readFile(service.store.path, 'utf8'))
      const addresses = onDisk.smartContracts.map((c: { address: string }) => c.address.toLowerCase())
      expect(new Set(addresses).size).toBe(200)
      expect(addresses.sort()).toEqual(Array.from({ length: 200 }, (_, i) => addressFor(i)).sort())
    } finally {
      await service.dispose()
    }
  })

  it('after kill -9 in the middle of writes, the service restarts with a valid store holding every acknowledged write', async () => {
    const dataDir = await makeTempDir('opstation-kill-')
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
    const { dashboardUrl, authToken } = first.ready
    const sdk = (p: string) => `${dashboardUrl}/api/v2/public/sdk/${p}`
    const dapp = await requestJson(sdk('paymaster'), {
      method: 'POST',
      headers: { authToken },
      body: { name: 'crash', type: 'HYBRID', chainId: 31337, version: '1' },
    })
    const headers = { authToken, apiKey: dapp.body.data.apiKey }
    const acknowledged: string[] = []
    let i = 0
    const writers = Array.from({ length: 8 }, async () => {
      for (;;) {
        const n = i++
        try {
          const res = await requestJson(sdk('smart-contract'), {
            method: 'POST',
            headers,
            body: { name: `k${n}`, address: addressFor(n), abi: ABI },
          })
          if (res.status === 200) acknowledged.push(addressFor(n))
        } catch {
          return // the process is gone
        }
      }
    })
    // Killed in the middle of the writes: once more than ten are acknowledged, with eight still in flight (how many
    // fit in a fixed time depends on the machine's load; that there were some before the kill does not).
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(10), { timeout: 30_000, interval: 5 })
    first.child.kill('SIGKILL')
    await Promise.all(writers)
    await first.exited

    const second = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
    try {
      expect(second.ready.authToken).toBe(authToken)
      const list = await requestJson(`${second.ready.dashboardUrl}/api/v2/public/sdk/smart-contract`, {
        headers,
      })
      expect(list.status).toBe(200)
      const stored = new Set(list.body.data.map((c: { address: string }) => c.address.toLowerCase()))
      for (const address of acknowledged) expect(stored.has(address)).toBe(true)
      JSON.parse(await readFile(path.join(dataDir, 'opstation.json'), 'utf8'))
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  })
})
