import { rm } from 'node:fs/promises'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Opstation, startOpstation } from '../../../src/main/api'
import { makeTestDataDir, seedWithChainTemplate } from '../../helpers/startTestService'

let op: Opstation
let dataDir: string

beforeAll(async () => {
  dataDir = await makeTestDataDir('opstation-handle-')
  await seedWithChainTemplate(dataDir)
  op = await startOpstation({ dataDir })
}, 60_000)

afterAll(async () => {
  await op?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const listDapps = async () => {
  const response = await fetch(`${op.dashboardUrl}/api/v2/public/sdk/paymaster`, {
    headers: { authToken: op.authToken },
  })
  return ((await response.json()) as { data: { apiKey: string }[] }).data.map((d) => d.apiKey)
}

describe("startOpstation's handle moves the whole stack in time", () => {
  it('snapshot() and revert(id): a dApp created in between is gone; a used id is refused', async () => {
    const id = await op.snapshot()
    const dapp = await op.createDapp({ name: 'per-test' })
    expect(await listDapps()).toContain(dapp.apiKey)
    await op.revert(id)
    expect(await listDapps()).not.toContain(dapp.apiKey)
    await expect(op.revert(id)).rejects.toThrow(/unknown or was used up/)
  })

  it('increaseTime(seconds) and mine(blocks) move the chain', async () => {
    const client = createPublicClient({ chain: op.chain, transport: http(op.rpcUrl!) })
    const before = await client.getBlock()
    await op.increaseTime(86_400)
    await op.mine(3)
    const after = await client.getBlock()
    expect(after.number).toBe(before.number + 3n)
    expect(after.timestamp - before.timestamp).toBeGreaterThanOrEqual(86_400n)
  })

  it('reset() answers once the contracts are back on a new chain; the dApps stay', async () => {
    const client = createPublicClient({ chain: op.chain, transport: http(op.rpcUrl!) })
    const dapp = await op.createDapp({ name: 'kept-by-reset' })
    await op.mine(5)
    await op.reset()
    expect(await client.getBlockNumber()).toBeLessThan(100n)
    expect(await client.getCode({ address: op.addresses!.entryPointV07 })).toMatch(/^0x[0-9a-f]{100,}$/)
    // The configuration stays; the dApp's gas tank is funded again on the new chain.
    expect(await listDapps()).toContain(dapp.apiKey)
  }, 60_000)
})
