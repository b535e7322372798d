import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerEventStreamRoutes } from '../../../src/main/service/console/events.routes'
import { createEventBus } from '../../../src/main/service/events'
import { ensureDefaultAccount } from '../../../src/main/service/store/accounts.repo'
import { openStore } from '../../../src/main/service/store/openStore'
import { eventsOf, readEventStream } from './readEventStream'

/** The stream's timing with short intervals: the route on its own Fastify app, no chain needed. */
let dataDir: string
let app: FastifyInstance
let url: string
const events = createEventBus()

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-events-'))
  const store = await openStore({ dataDir })
  const account = await ensureDefaultAccount(store)
  app = Fastify()
  await registerEventStreamRoutes(app, { store, events, batchMs: 100, heartbeatMs: 150 })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address() as { port: number }
  url = `http://127.0.0.1:${address.port}/console/api/events?authToken=${account.authToken}`
})
afterAll(async () => {
  await app?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('event stream timing', () => {
  it('sends a heartbeat comment while nothing happens', async () => {
    // Timed from before connecting: the server's heartbeat timer starts when the request arrives, which a loaded
    // machine can make later than the moment the client sees the response headers.
    const started = Date.now()
    const stream = await readEventStream(url)
    try {
      await stream.waitFor((b) => b.comments.includes('heartbeat'), 2000)
      expect(Date.now() - started).toBeGreaterThanOrEqual(100)
      expect(stream.blocks.every((b) => b.data === null)).toBe(true)
    } finally {
      stream.close()
    }
  })

  it('holds events for the batch interval and sends them as one message', async () => {
    const stream = await readEventStream(url)
    try {
      await stream.waitFor((b) => b.comments.includes('connected'))
      const sent = Date.now()
      events.emit('sponsorship.decided', { id: 'a', dappId: 'd', sponsored: true })
      await new Promise((r) => setTimeout(r, 30))
      events.emit('sponsorship.decided', { id: 'b', dappId: 'd', sponsored: false })
      const block = await stream.waitFor((b) => b.data !== null)
      expect(Date.now() - sent).toBeGreaterThanOrEqual(90)
      expect(eventsOf(block).map((e) => [e.name, e.payload.id])).toEqual([
        ['sponsorship.decided', 'a'],
        ['sponsorship.decided', 'b'],
      ])
      expect(stream.blocks.filter((b) => b.data !== null)).toHaveLength(1)
    } finally {
      stream.close()
    }
  })

  it('ends open streams when the server closes, so closing does not wait on them', async () => {
    const stream = await readEventStream(url)
    await stream.waitFor((b) => b.comments.includes('connected'))
    const started = Date.now()
    // Without the stream being ended, close() would wait for the client for ever.
    const closed = app.close()
    await stream.ended
    expect(Date.now() - started).toBeLessThan(1000)
    await closed
    stream.close()
  })
})
