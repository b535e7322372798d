import { expect } from 'vitest'
import { isProcessAlive } from '../../../src/main/service/util/process/isProcessAlive'
import { childrenOf } from '../../helpers/childrenOf'
import { makeTempDir } from '../../helpers/makeTempDir'
import { type SpawnCliOptions, type SpawnedCli, spawnCli } from '../../helpers/spawnCli'
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

/** The URLs of a service started with the CLI, from its ready line. */
export const urlsOfReady = (ready: Record<string, any>): Urls => ({
  rpcUrl: ready.rpcUrl,
  bundlerUrl: ready.bundlerUrl,
  dashboardUrl: ready.dashboardUrl,
  authToken: ready.authToken,
})

/** A data folder with the deployed chain in it, for a service that is killed and started again. */
export async function createKillableDataDir(prefix: string): Promise<string> {
  const dataDir = await makeTempDir(prefix)
  await seedWithChainTemplate(dataDir)
  return dataDir
}

/** `opstation serve` on a free port with this data folder. */
export function serveDataDir(dataDir: string, options: SpawnCliOptions = {}): Promise<SpawnedCli> {
  return spawnCli(['--port', '0', '--data-dir', dataDir], { timeoutMs: 60_000, ...options })
}

/** The anvil the service runs (read while the service lives: its children). */
export function anvilsOf(service: SpawnedCli): number[] {
  return childrenOf(service.child.pid as number)
}

/**
 * The service and its anvil killed with SIGKILL (the service may have killed itself already: then its anvil, taken
 * before, alone), and waited for: no quiet period, no save on the way out.
 */
export async function killHard(service: SpawnedCli, anvilPids: number[] = anvilsOf(service)): Promise<void> {
  service.child.kill('SIGKILL')
  for (const pid of anvilPids) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL')
  await service.exited
  while (anvilPids.some(isProcessAlive)) await new Promise((r) => setTimeout(r, 20))
}

/**
 * A dApp and an operation mined (kept), a snapshot, then a second dApp and an operation of the same account mined
 * (undone by the revert to `id` that follows).
 */
export async function prepareRevert(urls: Urls) {
  const dapp = await createDapp(urls, 'kept')
  const account = await createSponsoredAccount(urls, dapp.paymasterUrl)
  const kept = { apiKey: dapp.apiKey, owner: account.owner, hash: (await sendAndMine(account)).hash }
  const id = await clientsOf(urls).testClient.snapshot()
  const later = await createDapp(urls, 'undone')
  const undone = { apiKey: later.apiKey, hash: (await sendAndMine(account)).hash }
  return { id, kept, undone }
}

/**
 * The stack as the revert to prepareRevert's snapshot leaves it: the later dApp, its operation and receipt gone, the
 * mempool empty, and the same account's next operation (the undone one's nonce) mined at its first try.
 */
export async function expectStackReverted(
  urls: Urls,
  { kept, undone }: Awaited<ReturnType<typeof prepareRevert>>,
) {
  const apiKeys = (await listDapps(urls)).map((d) => d.apiKey)
  expect(apiKeys).toContain(kept.apiKey)
  expect(apiKeys).not.toContain(undone.apiKey)
  expect(await receiptOf(urls, kept.hash)).not.toBeNull()
  expect(await receiptOf(urls, undone.hash)).toBeNull()
  expect(await mempoolOf(urls)).toEqual([])
  const account = await createSponsoredAccount(urls, paymasterUrlOf(urls, kept.apiKey), kept.owner)
  expect((await sendAndMine(account)).success).toBe(true)
}
