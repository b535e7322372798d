import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import { afterAll, expect, it } from 'vitest'
import { createLogger } from '../../../src/main/service/log/createLogger'
import { registerConsoleRoutes } from '../../../src/main/service/server/consoleRoutes'
import { createConsoleSession } from '../../../src/main/service/server/consoleSession'
import { openStore } from '../../../src/main/service/store/openStore'

const root = mkdtempSync(path.join(os.tmpdir(), 'opstation-console-missing-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

it('a console that is not built logs nothing at start (a start-up error stays one line) and says so per request', async () => {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const app = Fastify({ loggerInstance: createLogger('warn', sink) as FastifyBaseLogger })
  const store = await openStore({ dataDir: root })
  await registerConsoleRoutes(app, {
    consoleDir: path.join(root, 'no-such-build'),
    getServiceInfo: () => {
      throw new Error('not asked')
    },
    session: createConsoleSession(store),
  })
  await app.ready()
  expect(lines).toEqual([])
  const page = await app.inject({ method: 'GET', url: '/console/paymasters' })
  expect(page.statusCode).toBe(503)
  expect(page.body).toContain('The console is not built')
  await app.close()
})
