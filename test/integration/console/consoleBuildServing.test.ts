import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publishConsole } from '../../../scripts/publishConsole.mjs'
import { startTestService, type TestService } from '../../helpers/startTestService'

/** A console build as vite writes it: index.html naming its content-hashed assets by absolute URL. */
function writeBuild(buildDir: string, hash: string) {
  mkdirSync(path.join(buildDir, 'assets'), { recursive: true })
  writeFileSync(
    path.join(buildDir, 'index.html'),
    `<!doctype html><script type="module" src="/console/assets/index-${hash}.js"></script><div id="build">${hash}</div>`,
  )
  writeFileSync(path.join(buildDir, 'assets', `index-${hash}.js`), `console.log(${JSON.stringify(hash)})`)
}

const publish = publishConsole

let service: TestService
let consoleDir: string
let buildDir: string
let root: string
const get = (url: string) => fetch(`${service.baseUrl}${url}`)

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'opstation-console-build-'))
  consoleDir = path.join(root, 'renderer')
  buildDir = path.join(root, 'renderer-build')
  service = await startTestService({ noChain: true, consoleDir })
})
afterAll(async () => {
  await service.dispose()
  rmSync(root, { recursive: true, force: true })
})

describe('the console as the service serves it', () => {
  it('says it is not built, then serves a build published while the service runs, at every depth', async () => {
    expect((await get('/console/')).status).toBe(503)
    writeBuild(buildDir, 'aaaa1111')
    publish({ buildDir, consoleDir })
    for (const route of [
      '/console/',
      '/console/activity',
      '/console/activity/op:0x1234',
      '/console/paymasters/K6Yswa1Nn.589c5afd-cee9-40d3-91f0-a75ae35b90b2',
      '/console/paymasters/K6Yswa1Nn.589c5afd-cee9-40d3-91f0-a75ae35b90b2/policies',
    ]) {
      const page = await get(route)
      expect(page.status, route).toBe(200)
      expect(page.headers.get('content-security-policy'), route).toContain("default-src 'self'")
      const html = await page.text()
      expect(html, route).toContain('src="/console/assets/index-aaaa1111.js"')
    }
    const asset = await get('/console/assets/index-aaaa1111.js')
    expect(asset.status).toBe(200)
    expect(await asset.text()).toContain('aaaa1111')
  })

  it('a rebuild with new asset names is served at once, and a page of the previous build still gets its assets', async () => {
    writeBuild(buildDir, 'bbbb2222')
    publish({ buildDir, consoleDir })
    expect(await (await get('/console/activity')).text()).toContain('index-bbbb2222.js')
    expect((await get('/console/assets/index-bbbb2222.js')).status).toBe(200)
    expect((await get('/console/assets/index-aaaa1111.js')).status).toBe(200)
    // Two builds later, the first one's assets are gone.
    writeBuild(buildDir, 'cccc3333')
    publish({ buildDir, consoleDir })
    expect((await get('/console/assets/index-aaaa1111.js')).status).toBe(404)
    expect((await get('/console/assets/index-bbbb2222.js')).status).toBe(200)
  })

  it('answers a missing asset, a path out of the folder and a malformed URL with a 4xx, never the app shell', async () => {
    const missing = await get('/console/assets/nope.js')
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { message: string }).message).toContain('Not found')
    expect((await get('/console/%2e%2e/%2e%2e/package.json')).status).toBe(404)
    expect((await get('/console/%E0%A4%A')).status).toBe(400)
    expect((await get('/console/api/nothing-here')).status).toBe(404)
  })
})
