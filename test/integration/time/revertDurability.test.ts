import { describe, expect, it } from 'vitest'
import { childrenOf } from '../../helpers/childrenOf'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { seedWithChainTemplate } from '../../helpers/startTestService'
import {
  clientsOf,
  createDapp,
  createSponsoredAccount,
  listDapps,
  mempoolOf,
  paymasterUrlOf,
  receiptOf,
  sendAndMine,
  type Urls,
} from './timeTravelKit'

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const urlsOf = (ready: Record<string, any>): Urls => ({
  rpcUrl: ready.rpcUrl,
  bundlerUrl: ready.bundlerUrl,
  dashboardUrl: ready.dashboardUrl,
  authToken: ready.authToken,
})

describe('a revert is durable', () => {
  it('kill -9 of the service and its anvil right after a revert: the restarted stack is as the revert left it', async () => {
    const dataDir = await makeTempDir('opstation-revert-kill-')
    await seedWithChainTemplate(dataDir)
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir], { timeoutMs: 60_000 })
    let kept: { apiKey: string; owner: `0x${string}`; hash: `0x${string}` }
    let undone: { apiKey: string; hash: `0x${string}` }
    try {
      const urls = urlsOf(first.ready)
      const { testClient } = clientsOf(urls)
      const dapp = await createDapp(urls, 'kept')
      const account = await createSponsoredAccount(urls, dapp.paymasterUrl)
      const mined = await sendAndMine(account)
      kept = { apiKey: dapp.apiKey, owner: account.owner, hash: mined.hash }
      const id = await testClient.snapshot()
      const later = await createDapp(urls, 'undone')
      undone = { apiKey: later.apiKey, hash: (await sendAndMine(account)).hash }
      await testClient.revert({ id })
    } finally {
      // Both processes at once, right after the revert was answered: no quiet period, no save on the way out.
      const anvilPids = childrenOf(first.child.pid as number)
      first.child.kill('SIGKILL')
      for (const pid of anvilPids) process.kill(pid, 'SIGKILL')
      await first.exited
      while (anvilPids.some(isAlive)) await new Promise((r) => setTimeout(r, 20))
    }

    const second = await spawnCli(['--port', '0', '--data-dir', dataDir], { timeoutMs: 60_000 })
    try {
      const urls = urlsOf(second.ready)
      const apiKeys = (await listDapps(urls)).map((d) => d.apiKey)
      expect(apiKeys).toContain(kept.apiKey)
      expect(apiKeys).not.toContain(undone.apiKey)
      expect(await receiptOf(urls, kept.hash)).not.toBeNull()
      expect(await receiptOf(urls, undone.hash)).toBeNull()
      expect(await mempoolOf(urls)).toEqual([])
      // The same account goes on from where the revert left it, mined at its first try.
      const account = await createSponsoredAccount(urls, paymasterUrlOf(urls, kept.apiKey), kept.owner)
      expect((await sendAndMine(account)).success).toBe(true)
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  }, 180_000)
})
