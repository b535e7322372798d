import { beforeAll, describe, expect, it } from 'vitest'
import { getSharedTestService } from '../../helpers/sharedTestService'
import { requestJson, type TestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  callConsole,
  callPaymaster,
  createDapp,
  sponsoredContext,
} from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

async function setActive(apiKey: string, body: unknown) {
  return callConsole(service, `/console/api/dapps/${apiKey}`, { method: 'PATCH', body })
}

async function sponsor(apiKey: string) {
  const op = await buildSponsorRequestOp(service)
  const { status, body } = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
    op,
    sponsoredContext(),
  ])
  expect(status).toBe(200)
  return body.result as { paymasterAndData: string; callGasLimit: string }
}

async function lastDecision(apiKey: string) {
  const { body } = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}&limit=1`)
  return body.data.items[0] as {
    sponsored: boolean
    reason: string | null
    paymasterAndData: string
    steps: { step: string; outcome: string; detail: string }[]
  }
}

describe('dApp activate / deactivate', () => {
  it('a deactivated dApp is not sponsored (paymasterAndData "0x", the dApp step fails with the reason recorded); reactivated, it is again', async () => {
    const { apiKey, dapp } = await createDapp(service, 'switchable')
    expect((await sponsor(apiKey)).paymasterAndData).not.toBe('0x')

    const off = await setActive(apiKey, { active: false })
    expect(off).toMatchObject({
      status: 200,
      body: { message: 'Paymaster deactivated', data: { apiKey, name: 'switchable', active: false } },
    })
    const refused = await sponsor(apiKey)
    expect(refused.paymasterAndData).toBe('0x')
    expect(BigInt(refused.callGasLimit)).toBeGreaterThan(0n)
    const decision = await lastDecision(apiKey)
    expect(decision).toMatchObject({
      sponsored: false,
      paymasterAndData: '0x',
      reason: 'dApp "switchable" is deactivated',
    })
    expect(decision.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
      'dapp:fail',
      'whitelist:skip',
      'limits:skip',
      'estimate:skip',
      'gasTank:skip',
      'webhook:skip',
    ])

    // The dashboard list shows the state too.
    const listed = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      headers: { authToken: service.authToken() },
    })
    expect(listed.body.data.find((p: { apiKey: string }) => p.apiKey === apiKey).active).toBe(false)

    const on = await setActive(apiKey, { active: true })
    expect(on.body).toMatchObject({ message: 'Paymaster activated', data: { active: true } })
    expect(service.store.data.dapps.find((d) => d.id === dapp.id)?.active).toBe(true)
    expect((await sponsor(apiKey)).paymasterAndData).not.toBe('0x')
    expect(await lastDecision(apiKey)).toMatchObject({ sponsored: true, reason: null })
  }, 90_000)

  it('requires a boolean active, a known apiKey and the auth token', async () => {
    const { apiKey } = await createDapp(service)
    for (const body of [{}, { active: 'false' }, { active: 1 }, { active: null }]) {
      expect(await setActive(apiKey, body)).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: 'active must be a boolean value' },
      })
    }
    expect(await setActive('no-such-key', { active: false })).toMatchObject({
      status: 404,
      body: { message: 'Paymaster not found for this apiKey' },
    })
    const anonymous = await requestJson(`${service.baseUrl}/console/api/dapps/${apiKey}`, {
      method: 'PATCH',
      body: { active: false },
    })
    expect(anonymous).toMatchObject({
      status: 401,
      body: { message: 'Auth token is required in the headers' },
    })
    const wrongToken = await requestJson(`${service.baseUrl}/console/api/dapps/${apiKey}`, {
      method: 'PATCH',
      headers: { authToken: 'not-the-token' },
      body: { active: false },
    })
    expect(wrongToken).toMatchObject({ status: 401, body: { message: 'Invalid auth token' } })
    expect(service.store.data.dapps.find((d) => d.apiKey === apiKey)?.active).toBe(true)
  })
})
