import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import {
  clientsOf,
  createDapp,
  createSponsoredAccount,
  listDapps,
  sendAndMine,
  type Urls,
  urlsOf,
} from './timeTravelKit'

let service: TestService
let urls: Urls

beforeAll(async () => {
  service = await startTestService()
  urls = urlsOf(service)
}, 60_000)

afterAll(async () => {
  await service?.dispose()
})

/** A console time route, with the console's credentials. */
async function time(path: string, body?: unknown) {
  return requestJson(`${urls.dashboardUrl}/console/api/time${path}`, {
    method: body === undefined && path === '' ? 'GET' : 'POST',
    headers: { authToken: urls.authToken },
    body,
  })
}

describe('the console time routes (console/time.routes.ts)', () => {
  it('advance moves chain time (and the status offset), not wall time; mine adds blocks', async () => {
    const before = (await time('')).body.data
    expect(Math.abs(before.offsetSeconds)).toBeLessThan(60)
    const advanced = (await time('/advance', { seconds: 3 * 86_400 })).body.data
    expect(advanced.offsetSeconds - before.offsetSeconds).toBeGreaterThanOrEqual(3 * 86_400 - 2)
    expect(Math.abs(advanced.wallTime - Date.now() / 1000)).toBeLessThan(5)
    const status = await requestJson(`${urls.dashboardUrl}/console/api/status`, {
      headers: { authToken: urls.authToken },
    })
    expect(Math.abs(status.body.chainTimeOffsetSeconds - advanced.offsetSeconds)).toBeLessThan(3)
    const mined = (await time('/mine', { blocks: 5 })).body.data
    expect(mined.blockNumber).toBe(advanced.blockNumber + 5)
  })

  it('names snapshots, says what a revert undid, and drops the ids it used up (with one taken at the chain URL)', async () => {
    const { testClient } = clientsOf(urls)
    const first = await createDapp(urls, 'kept')
    const account = await createSponsoredAccount(urls, first.paymasterUrl)
    await sendAndMine(account)
    const taken = (await time('/snapshots', { name: 'before demo' })).body.data
    expect(taken.snapshots.map((s: { name: string }) => s.name)).toEqual(['before demo'])
    const [named] = taken.snapshots
    await createDapp(urls, 'undone')
    await sendAndMine(account)
    await sendAndMine(account)
    await time('/snapshots', { name: 'later' })
    await testClient.snapshot() // not the console's: never listed

    const reverted = await time(`/snapshots/${named.id}/revert`)
    expect(reverted.status).toBe(200)
    expect(reverted.body.message).toBe("Reverted to 'before demo'")
    expect(reverted.body.data.undone).toMatchObject({ operations: 2, dapps: 1 })
    // Each operation was sponsored after the snapshot (a stub and a final decision each, as viem asks).
    expect(reverted.body.data.undone.sponsorships).toBeGreaterThanOrEqual(2)
    // The snapshot and every later one are used up, as on anvil.
    expect(reverted.body.data.snapshots).toEqual([])
    expect((await listDapps(urls)).map((d) => d.name)).toEqual(expect.not.arrayContaining(['undone']))
    const again = await time(`/snapshots/${named.id}/revert`)
    expect(again.status).toBe(404)
    expect(again.body.message).toMatch(/No snapshot .* is kept/)
  }, 120_000)

  it('refuses bad input with its message and a request without the auth token', async () => {
    expect((await time('/advance', { seconds: -1 })).body).toEqual({
      statusCode: 400,
      message: 'seconds must be at least 1',
    })
    expect((await time('/mine', { blocks: 'many' })).body).toEqual({
      statusCode: 400,
      message: 'blocks must be a number',
    })
    expect((await time('/snapshots', { name: '  ' })).body).toEqual({
      statusCode: 400,
      message: 'name must not be empty',
    })
    expect((await time('/reset', { everything: true })).body).toEqual({
      statusCode: 400,
      message: 'This action takes no fields: send no body or {}',
    })
    const anonymous = await requestJson(`${urls.dashboardUrl}/console/api/time/snapshots`, {
      method: 'POST',
      body: { name: 'x' },
    })
    expect(anonymous.status).toBe(401)
    expect((await time('')).body.data.snapshots).toEqual([])
  })

  it('reset says what it undid and leaves the stack at its first start', async () => {
    const dapp = await createDapp(urls, 'before-reset')
    await sendAndMine(await createSponsoredAccount(urls, dapp.paymasterUrl))
    const reset = await time('/reset', {})
    expect(reset.status).toBe(200)
    expect(reset.body.data.undone.operations).toBeGreaterThanOrEqual(1)
    expect(reset.body.data.undone.sponsorships).toBeGreaterThanOrEqual(1)
    expect(Math.abs(reset.body.data.offsetSeconds)).toBeLessThan(60)
  }, 120_000)
})
