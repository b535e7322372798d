import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getGasTankBalance } from '../../../src/main/service/chain'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
beforeAll(async () => {
  // On an empty folder, as a user's first start: the service deploys every contract itself (the other files start
  // from the run's deployed chain).
  service = await startTestService({ fresh: true })
})
afterAll(async () => service.dispose())

describe('the service on its embedded chain, started on an empty data folder', () => {
  it('reports the chain RPC URL and the canonical contract addresses', async () => {
    const info = service.info()
    expect(info.chain).toMatchObject({ kind: 'embedded', state: 'ready', missing: [] })
    expect(info.chain.addresses).toMatchObject({ entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789' })
    const client = createPublicClient({ transport: http(info.rpcUrl!) })
    expect(await client.getChainId()).toBe(31337)
    const status = await requestJson(`${service.baseUrl}/console/api/status`, {
      headers: { authToken: service.authToken() },
    })
    expect(status.body.chain.addresses.smartAccountFactory).toBe('0x000000a56Aaca3e9a4C479ea6b6CD0DbcB6634F5')
  })

  it('gives every new dApp an on-chain paymasterId with a funded gas tank', async () => {
    const authToken = service.authToken()
    const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      method: 'POST',
      headers: { authToken },
      body: { name: 'tank', type: 'HYBRID', chainId: 31337, version: '1.1.0' },
    })
    expect(res.status).toBe(200)
    const list = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      headers: { authToken },
    })
    const dapp = list.body.data.find((d: { name: string }) => d.name === 'tank')
    expect(dapp.paymasterId).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await getGasTankBalance(service.chain!, dapp.paymasterId, '0.6')).toBe(parseEther('10'))
  })
})
