import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENTS_AUTH_TOKEN_REQUIRED } from '../../../src/main/service/console/events.routes'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  callConsole,
  callPaymaster,
  createDapp,
  sponsoredContext,
} from '../paymaster/paymasterTestKit'
import { eventsOf, readEventStream } from './readEventStream'

let service: TestService
/** Subscriptions the stream holds on the event bus right now (counted by wrapping `onAny`). */
let streamListeners = 0

beforeAll(async () => {
  service = await startTestService()
  const onAny = service.events.onAny
  service.events.onAny = (listener) => {
    streamListeners += 1
    const off = onAny(listener)
    return () => {
      streamListeners -= 1
      off()
    }
  }
})
afterAll(async () => {
  await service?.dispose()
})

const eventsUrl = (authToken?: string) =>
  `${service.baseUrl}/console/api/events${authToken === undefined ? '' : `?authToken=${encodeURIComponent(authToken)}`}`

async function waitUntil(condition: () => boolean, timeoutMs = 5000) {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('GET /console/api/events (Server-Sent Events)', () => {
  it('streams a sponsorship decision as it is made, batched in one data message holding an array', async () => {
    const { apiKey, dapp } = await createDapp(service)
    const stream = await readEventStream(eventsUrl(service.authToken()))
    try {
      expect(stream.status).toBe(200)
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform')
      await stream.waitFor((b) => b.comments.includes('connected'))

      const op = await buildSponsorRequestOp(service)
      const { body } = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
        op,
        sponsoredContext(),
      ])
      expect(body.result.paymasterAndData).not.toBe('0x')

      const block = await stream.waitFor((b) => eventsOf(b).some((e) => e.name === 'sponsorship.decided'))
      const events = eventsOf(block)
      expect(Array.isArray(events)).toBe(true)
      const decided = events.find((e) => e.name === 'sponsorship.decided')!
      const decisions = await callConsole(
        service,
        `/console/api/sponsorship-decisions?apiKey=${apiKey}&limit=1`,
      )
      expect(decided.payload).toEqual({
        id: decisions.body.data.items[0].id,
        dappId: dapp.id,
        sponsored: true,
      })
      expect(new Date(decided.at).getTime()).toBeGreaterThan(Date.now() - 60_000)
    } finally {
      stream.close()
    }
  })

  it('gathers events emitted together into one message', async () => {
    const stream = await readEventStream(eventsUrl(service.authToken()))
    try {
      await stream.waitFor((b) => b.comments.includes('connected'))
      for (const state of ['restarting', 'ready', 'ready'])
        service.events.emit('chain.status', { state, message: `test ${state}` })
      const block = await stream.waitFor((b) => eventsOf(b).some((e) => e.name === 'chain.status'))
      expect(eventsOf(block).map((e) => e.payload.state)).toEqual(['restarting', 'ready', 'ready'])
    } finally {
      stream.close()
    }
  })

  it('takes the token from the authToken header too, and removes its bus listener when the client disconnects', async () => {
    await waitUntil(() => streamListeners === 0)
    const stream = await readEventStream(eventsUrl(), { headers: { authToken: service.authToken() } })
    try {
      expect(stream.status).toBe(200)
      await stream.waitFor((b) => b.comments.includes('connected'))
      expect(streamListeners).toBe(1)
    } finally {
      stream.close()
    }
    await waitUntil(() => streamListeners === 0)
    // Events after the disconnect go nowhere and break nothing.
    service.events.emit('chain.status', { state: 'ready' })
    expect((await requestJson(`${service.baseUrl}/health`)).status).toBe(200)
  })

  it('checks the query token like the header: missing, blank and wrong tokens are 401', async () => {
    for (const url of [eventsUrl(), eventsUrl(''), eventsUrl('   ')]) {
      expect(await requestJson(url)).toMatchObject({
        status: 401,
        body: { statusCode: 401, message: EVENTS_AUTH_TOKEN_REQUIRED },
      })
    }
    expect(await requestJson(eventsUrl('not-the-token'))).toMatchObject({
      status: 401,
      body: { message: 'Invalid auth token' },
    })
    expect(
      await requestJson(eventsUrl('not-the-token'), { headers: { authToken: 'also-wrong' } }),
    ).toMatchObject({ status: 401, body: { message: 'Invalid auth token' } })
    // Refused requests subscribe nothing; the streams of the tests above are gone too.
    await waitUntil(() => streamListeners === 0)
  })

  it('is same-origin only: a request from another site is refused', async () => {
    const foreign = await requestJson(eventsUrl(service.authToken()), {
      headers: { origin: 'http://evil.example' },
    })
    expect(foreign).toMatchObject({
      status: 403,
      body: { message: 'Cross-origin requests are not allowed on this route' },
    })
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    const sameOrigin = await readEventStream(eventsUrl(service.authToken()), {
      headers: { origin: service.baseUrl },
    })
    expect(sameOrigin.status).toBe(200)
    sameOrigin.close()
  })

  it('ends a stream whose auth token was regenerated away, before sending it anything more', async () => {
    const stream = await readEventStream(eventsUrl(service.authToken()))
    await stream.waitFor((b) => b.comments.includes('connected'))
    const regenerated = await callConsole(service, '/console/api/account/auth-token', { method: 'POST' })
    expect(regenerated.status).toBe(200)
    service.events.emit('chain.status', { state: 'ready', message: 'after the new token' })
    await stream.ended
    expect(stream.blocks.some((b) => b.data !== null)).toBe(false)
    const renewed = await readEventStream(eventsUrl(regenerated.body.data.authToken))
    expect(renewed.status).toBe(200)
    renewed.close()
  })
})
