import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseEther } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { createGasTank, getGasTankBalance, mine } from '../../../src/main/service/chain'
import { createService } from '../../../src/main/service/createService'
import { setDappPaymasterId } from '../../../src/main/service/store/dapps.repo'
import type { TestService } from '../../helpers/startTestService'
import { callConsole, createDapp } from './paymasterTestKit'

describe('gas tanks of every EntryPoint version at start', () => {
  let dataDir: string
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it("gives a dApp from before v0.7/v0.8 its two new tanks on the next start, and leaves a tank emptied on purpose empty, long after its deposit left the chain's kept history", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-tanks-'))
    const first = Object.assign(await createService({ port: 0, logLevel: 'silent', dataDir }), { dataDir })
    const service = Object.assign(first, {
      baseUrl: first.info().dashboardUrl,
      dispose: () => first.close(),
    }) as TestService
    // A dApp as an older Opstation left it: a paymasterId with a v0.6 tank only.
    const old = await createDapp(service)
    const legacy = await createGasTank(service.chain!, { versions: ['0.6'] })
    await setDappPaymasterId(service.store, old.dapp.id, legacy.paymasterId)
    await service.store.update((doc) => {
      delete doc.dapps.find((d) => d.id === old.dapp.id)!.gasTanksFunded
    })
    expect(await getGasTankBalance(service.chain!, legacy.paymasterId, '0.7')).toBe(0n)
    // A current dApp that withdrew its whole v0.7 tank.
    const emptied = await createDapp(service)
    const withdrawn = await callConsole(service, `/console/api/dapps/${emptied.apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'withdraw', amountWei: parseEther('10').toString(), entryPointVersion: '0.7' },
    })
    expect(withdrawn.status).toBe(200)
    // The chain keeps its recent blocks' logs only: what was funded is known without them.
    await mine(service.chain!, 100)
    await first.close()

    const second = await createService({ port: 0, logLevel: 'silent', dataDir })
    try {
      const chain = second.chain!
      expect(await getGasTankBalance(chain, legacy.paymasterId, '0.6')).toBe(parseEther('10'))
      expect(await getGasTankBalance(chain, legacy.paymasterId, '0.7')).toBe(parseEther('10'))
      expect(await getGasTankBalance(chain, legacy.paymasterId, '0.8')).toBe(parseEther('10'))
      expect(await getGasTankBalance(chain, emptied.paymasterId, '0.7')).toBe(0n)
      expect(await getGasTankBalance(chain, emptied.paymasterId, '0.8')).toBe(parseEther('10'))
    } finally {
      await second.close()
    }
  }, 120_000)
})
