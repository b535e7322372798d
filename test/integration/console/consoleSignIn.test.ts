import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE, SIGN_IN_REQUIRED } from '../../../src/main/service/server/consoleSession'
import { requestRaw } from '../../helpers/requestRaw'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
beforeAll(async () => {
  service = await startTestService({ noChain: true })
})
afterAll(async () => service?.dispose())

const loginToken = () => new URL(service.info().consoleLoginUrl).searchParams.get('token')!

/** Opens the login URL as a browser does and returns the session cookie it was given. */
async function signIn(): Promise<string> {
  const res = await requestRaw(service.info().consoleLoginUrl, { method: 'GET' })
  expect(res.status).toBe(303)
  const setCookie = String(res.headers['set-cookie'])
  return setCookie.split(';')[0]!
}

describe('console sign-in: the auth token never leaves without proof', () => {
  it('refuses the session and the status to a request with no credential (curl from any local process)', async () => {
    const session = await requestJson(`${service.baseUrl}/console/api/session`)
    expect(session).toMatchObject({ status: 401, body: { statusCode: 401, message: SIGN_IN_REQUIRED } })
    const status = await requestJson(`${service.baseUrl}/console/api/status`)
    expect(status.status).toBe(401)
    const bundlerKey = service.store.data.accounts[0]!.bundlerKey
    expect(JSON.stringify(status.body)).not.toContain(bundlerKey)
    expect(JSON.stringify(session.body)).not.toContain(service.authToken())
  })

  it('the login URL gives an HttpOnly, SameSite=Strict session cookie and drops the token from the address', async () => {
    const res = await requestRaw(`${service.info().consoleLoginUrl}&x=1`, { method: 'GET' })
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/console/?x=1')
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; `))
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    const session = await requestJson(`${service.baseUrl}/console/api/session`, {
      headers: { cookie: cookie.split(';')[0]! },
    })
    expect(session.body).toEqual({ authToken: service.authToken(), accountId: expect.any(String) })
  })

  it('a wrong token starts no session, and the login token changes with every start', async () => {
    const res = await requestRaw(`${service.baseUrl}/console/?token=${'a'.repeat(32)}`, { method: 'GET' })
    expect(res.headers['set-cookie']).toBeUndefined()
    const forged = await requestJson(`${service.baseUrl}/console/api/session`, {
      headers: { cookie: `${SESSION_COOKIE}=${'A'.repeat(43)}` },
    })
    expect(forged.status).toBe(401)
    const other = await startTestService({ noChain: true })
    try {
      expect(new URL(other.info().consoleLoginUrl).searchParams.get('token')).not.toBe(loginToken())
    } finally {
      await other.dispose()
    }
  })

  it('POST /console/api/login takes the login token or the auth token, and refuses anything else', async () => {
    for (const token of [loginToken(), service.authToken()]) {
      const res = await requestJson(`${service.baseUrl}/console/api/login`, {
        method: 'POST',
        body: { token },
      })
      expect(res.status).toBe(200)
      expect(res.body.authToken).toBe(service.authToken())
      expect(res.headers.get('set-cookie')).toContain(`${SESSION_COOKIE}=`)
    }
    for (const body of [{ token: 'nope' }, { token: '' }, {}, { token: 42 }]) {
      const res = await requestJson(`${service.baseUrl}/console/api/login`, { method: 'POST', body })
      expect(res.status).toBe(401)
      expect(res.body.message).toMatch(/^Invalid login token/)
    }
  })

  it('even a signed-in cookie is refused from another origin, including Origin: null', async () => {
    const cookie = await signIn()
    for (const origin of [
      'http://evil.example',
      'null',
      `${service.baseUrl.replace('127.0.0.1', 'localhost')}`,
    ]) {
      const res = await requestJson(`${service.baseUrl}/console/api/session`, { headers: { cookie, origin } })
      expect(res.status).toBe(403)
    }
    const sameOrigin = await requestJson(`${service.baseUrl}/console/api/session`, {
      headers: { cookie, origin: service.baseUrl },
    })
    expect(sameOrigin.status).toBe(200)
  })

  it('regenerating the auth token ends every console session; the console that asked gets a new cookie', async () => {
    const cookie = await signIn()
    const res = await requestJson(`${service.baseUrl}/console/api/account/auth-token`, {
      method: 'POST',
      headers: { authToken: service.authToken() },
    })
    expect(res.status).toBe(200)
    const old = await requestJson(`${service.baseUrl}/console/api/session`, { headers: { cookie } })
    expect(old.status).toBe(401)
    const fresh = res.headers.get('set-cookie')!.split(';')[0]!
    const session = await requestJson(`${service.baseUrl}/console/api/session`, {
      headers: { cookie: fresh },
    })
    expect(session.body.authToken).toBe(res.body.data.authToken)
  })

  it('the event stream takes the session cookie, so its URL carries no key', async () => {
    const cookie = await signIn()
    const controller = new AbortController()
    const res = await fetch(`${service.baseUrl}/console/api/events`, {
      headers: { cookie },
      signal: controller.signal,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    controller.abort()
    const none = await requestJson(`${service.baseUrl}/console/api/events`)
    expect(none.status).toBe(401)
  })
})

/** A non-loopback IPv4 address of this machine, if it has one. */
function lanAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces()))
    for (const entry of list ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address
  return undefined
}

describe.skipIf(lanAddress() === undefined)('listening on every interface (--host 0.0.0.0)', () => {
  let open: TestService
  beforeAll(async () => {
    open = await startTestService({ noChain: true, host: '0.0.0.0' })
  })
  afterAll(async () => open?.dispose())

  it('a client on another interface that sends Host: localhost is refused; its own address is served', async () => {
    const port = new URL(open.baseUrl).port
    const address = lanAddress()!
    const spoofed = await requestRaw(
      `http://${address}:${port}/console/?token=${new URL(open.info().consoleLoginUrl).searchParams.get('token')}`,
      {
        method: 'GET',
        headers: { host: `localhost:${port}` },
      },
    )
    expect(spoofed.status).toBe(403)
    expect(spoofed.headers['set-cookie']).toBeUndefined()
    const direct = await requestRaw(`http://${address}:${port}/console/api/session`, { method: 'GET' })
    expect(direct.status).toBe(401)
  })
})
