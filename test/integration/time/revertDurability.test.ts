import { describe, expect, it } from 'vitest'
import {
  createKillableDataDir,
  expectStackReverted,
  killHard,
  prepareRevert,
  serveDataDir,
  urlsOfReady,
} from './killedStack'
import { clientsOf } from './timeTravelKit'

describe('a revert is durable', () => {
  it('kill -9 of the service and its anvil right after a revert: the restarted stack is as the revert left it', async () => {
    const dataDir = await createKillableDataDir('opstation-revert-kill-')
    const first = await serveDataDir(dataDir)
    let prepared: Awaited<ReturnType<typeof prepareRevert>>
    try {
      const urls = urlsOfReady(first.ready)
      prepared = await prepareRevert(urls)
      await clientsOf(urls).testClient.revert({ id: prepared.id })
    } finally {
      // Both processes at once, right after the revert was answered: no quiet period, no save on the way out.
      await killHard(first)
    }

    const second = await serveDataDir(dataDir)
    try {
      // The same account goes on from where the revert left it, mined at its first try.
      await expectStackReverted(urlsOfReady(second.ready), prepared)
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  }, 180_000)
})
