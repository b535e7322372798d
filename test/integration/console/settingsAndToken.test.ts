import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService } from '../../../src/main/service/createService'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
beforeAll(async () => {
  service = await startTestService({ noChain: true })
})
afterAll(async () => service.dispose())

describe('console API: settings and auth token', () => {
  it('saves settings, applies bundling mode, unsafe and webhook time-out at once, and keeps them across restarts', async () => {
    const headers = { authToken: service.authToken() }
    const bad = await requestJson(`${service.baseUrl}/console/api/settings`, {
      method: 'PATCH',
      headers,
      body: { bundlingMode: 'sometimes' },
    })
    expect(bad.body).toEqual({ statusCode: 400, message: 'bundlingMode must be auto, interval or manual' })
    const res = await requestJson(`${service.baseUrl}/console/api/settings`, {
      method: 'PATCH',
      headers,
      body: { bundlingMode: 'manual', unsafe: true, webhookTimeoutMs: 1500, rpcUrl: 'http://127.0.0.1:8545' },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      saved: {
        bundlingMode: 'manual',
        unsafe: true,
        webhookTimeoutMs: 1500,
        rpcUrl: 'http://127.0.0.1:8545',
      },
      effective: { bundlingMode: 'manual', unsafe: true, webhookTimeoutMs: 1500 },
      restartRequired: true,
    })
    expect(service.runtime).toEqual({ bundlingMode: 'manual', unsafe: true, webhookTimeoutMs: 1500 })
  })

  it('a flag given on start wins over a saved setting', async () => {
    const { dataDir } = service
    await service.close()
    const restarted = await createService({
      dataDir,
      port: 0,
      noChain: true,
      logLevel: 'silent',
      unsafe: false,
    })
    try {
      expect(restarted.runtime).toEqual({ bundlingMode: 'manual', unsafe: false, webhookTimeoutMs: 1500 })
      expect(restarted.config.rpcUrl).toBe('http://127.0.0.1:8545')
    } finally {
      await restarted.close()
    }
    service = await startTestService({ dataDir, noChain: true })
  })

  it('regenerating the auth token makes the old one stop working', async () => {
    const old = service.authToken()
    const res = await requestJson(`${service.baseUrl}/console/api/account/auth-token`, {
      method: 'POST',
      headers: { authToken: old },
    })
    expect(res.status).toBe(200)
    const fresh = res.body.data.authToken
    expect(fresh).toMatch(/^[0-9a-f]{64}$/)
    expect(
      (await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, { headers: { authToken: old } }))
        .status,
    ).toBe(401)
    expect(
      (await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, { headers: { authToken: fresh } }))
        .status,
    ).toBe(200)
  })
})
