import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { STACK_MARKER } from '../../../src/main/service/chain/stack/stackIntent'
import { requestJson } from '../../helpers/startTestService'
import {
  anvilsOf,
  createKillableDataDir,
  expectStackReverted,
  killHard,
  prepareRevert,
  serveDataDir,
  urlsOfReady,
} from './killedStack'
import {
  clientsOf,
  createDapp,
  createSponsoredAccount,
  listDapps,
  paymasterUrlOf,
  receiptOf,
  rpc,
  sendAndMine,
  type Urls,
} from './timeTravelKit'

/** Where the service keeps the record of a revert or a reset under way (chain/stack/stackIntent.ts). */
const intentPathOf = (dataDir: string) => join(dataDir, 'chain', 'stack-intent.json')

async function sponsorshipDecisions(urls: Urls): Promise<unknown[]> {
  const { body } = await requestJson(`${urls.dashboardUrl}/console/api/sponsorship-decisions`, {
    headers: { authToken: urls.authToken },
  })
  return body.data.items
}

/**
 * A service that kills itself at `point` during `call` (it gets no answer), with its anvil killed after it, as a crash
 * there would leave them; `prepare` runs before, and what it answers is answered.
 */
async function killDuring<T>(
  point: 'stack.beforeChain' | 'stack.afterChain',
  prepare: (urls: Urls) => Promise<T>,
  call: (urls: Urls, prepared: T) => Promise<unknown>,
): Promise<{ dataDir: string; prepared: T }> {
  const dataDir = await createKillableDataDir('opstation-stack-kill-')
  const first = await serveDataDir(dataDir, { env: { ...process.env, OPSTATION_TEST_KILL_AT: point } })
  try {
    const urls = urlsOfReady(first.ready)
    const prepared = await prepare(urls)
    const anvils = anvilsOf(first)
    await expect(call(urls, prepared)).rejects.toThrow()
    await killHard(first, anvils)
    return { dataDir, prepared }
  } finally {
    await killHard(first)
  }
}

/**
 * The service started again on the data folder a kill left with a revert or a reset under way (its record there):
 * `check` sees the restarted stack, which has settled it (the record gone).
 */
async function restartAfterKill(dataDir: string, check: (urls: Urls) => Promise<void>) {
  expect(existsSync(intentPathOf(dataDir))).toBe(true)
  const second = await serveDataDir(dataDir)
  try {
    await check(urlsOfReady(second.ready))
    expect(existsSync(intentPathOf(dataDir))).toBe(false)
  } finally {
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }
}

const revertTo = (urls: Urls, prepared: { id: Hex }) => clientsOf(urls).testClient.revert({ id: prepared.id })

describe('a revert or a reset is one durable step across the chain and the store', () => {
  it('kill -9 after the chain went back and before the store was written: the restart finishes the revert (the later dApp, its operation and receipt gone; the account goes on)', async () => {
    const { dataDir, prepared } = await killDuring('stack.afterChain', prepareRevert, revertTo)
    // The chain went back too: the same account's next operation takes the undone one's nonce, mined at once.
    await restartAfterKill(dataDir, (urls) => expectStackReverted(urls, prepared))
  }, 180_000)

  it('kill -9 after the revert was recorded and before the chain went back: the restart undoes it (the later dApp, its operation and receipt still there; the chain unmarked)', async () => {
    const { dataDir, prepared } = await killDuring('stack.beforeChain', prepareRevert, revertTo)
    await restartAfterKill(dataDir, async (urls) => {
      const { kept, undone } = prepared
      const apiKeys = (await listDapps(urls)).map((d) => d.apiKey)
      expect(apiKeys).toEqual(expect.arrayContaining([kept.apiKey, undone.apiKey]))
      expect(await receiptOf(urls, kept.hash)).not.toBeNull()
      expect(await receiptOf(urls, undone.hash)).not.toBeNull()
      const marker = await rpc(urls.rpcUrl, 'eth_getStorageAt', [STACK_MARKER, '0x0', 'latest'])
      expect(BigInt(marker.result as Hex)).toBe(0n)
      // The chain did not go back either: the account goes on after the undone operation, mined at once.
      const account = await createSponsoredAccount(urls, paymasterUrlOf(urls, undone.apiKey), kept.owner)
      expect((await sendAndMine(account)).success).toBe(true)
    })
  }, 180_000)

  it('kill -9 after anvil_reset reset the chain and before the store was written: the restart finishes the reset (no activity left, the dApp kept, its gas tank funded again)', async () => {
    const { dataDir, prepared } = await killDuring(
      'stack.afterChain',
      async (urls) => {
        const dapp = await createDapp(urls, 'kept')
        const account = await createSponsoredAccount(urls, dapp.paymasterUrl)
        const hash = (await sendAndMine(account)).hash
        expect(await sponsorshipDecisions(urls)).not.toEqual([])
        return { apiKey: dapp.apiKey, hash }
      },
      (urls) => clientsOf(urls).testClient.reset(),
    )
    await restartAfterKill(dataDir, async (urls) => {
      expect((await listDapps(urls)).map((d) => d.apiKey)).toContain(prepared.apiKey)
      expect(await receiptOf(urls, prepared.hash)).toBeNull()
      expect(await sponsorshipDecisions(urls)).toEqual([])
      // The reset chain has the contracts again and the dApp's tank is funded again: a new account is sponsored.
      const account = await createSponsoredAccount(urls, paymasterUrlOf(urls, prepared.apiKey))
      expect((await sendAndMine(account)).success).toBe(true)
    })
  }, 180_000)
})
