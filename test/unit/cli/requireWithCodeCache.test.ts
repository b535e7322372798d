import { execFileSync } from 'node:child_process'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'

const LOADER = path.resolve(import.meta.dirname, '../../../scripts/lib/requireWithCodeCache.cjs')

/** Runs `file` through the loader in a new node process; prints what the module exports and whether V8 took a cache. */
function runThroughLoader(file: string): { exported: unknown; cacheUsed: boolean } {
  const probe = `
    const vm = require('node:vm')
    let used = false
    const Script = vm.Script
    vm.Script = class extends Script {
      constructor(source, options) { super(source, options); used = options.cachedData !== undefined && !this.cachedDataRejected }
    }
    const exported = require(${JSON.stringify(LOADER)}).requireWithCodeCache(${JSON.stringify(file)})
    process.stdout.write(JSON.stringify({ exported, cacheUsed: used }))`
  return JSON.parse(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }))
}

describe('requireWithCodeCache (the CLI bundle loaded with V8 code cache)', () => {
  let dir: string
  beforeEach(async () => {
    dir = await makeTempDir('opstation-code-cache-')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const writeBundle = (id: string, body: string) => {
    const file = path.join(dir, 'bundle.cjs')
    writeFileSync(file, `// build ${id}\n${body}`)
    return file
  }

  it('runs the file as CommonJS, writes its cache at exit, and the next run starts from it', () => {
    const file = writeBundle(
      '0a1b2c3d-0001',
      "module.exports = { sum: [1, 2, 3].reduce((a, b) => a + b), dir: __dirname, req: typeof require('node:path').join }",
    )
    expect(runThroughLoader(file)).toEqual({
      exported: { sum: 6, dir: dir, req: 'function' },
      cacheUsed: false,
    })
    expect(readdirSync(dir).filter((name) => name.endsWith('.v8cache'))).toEqual([
      'bundle.cjs.0a1b2c3d-0001.v8cache',
    ])
    expect(runThroughLoader(file)).toEqual({
      exported: { sum: 6, dir: dir, req: 'function' },
      cacheUsed: true,
    })
  })

  it('never runs a new build from the cache of another, even of the same length', () => {
    const first = writeBundle('0a1b2c3d-0001', 'module.exports = { value: 111 }')
    runThroughLoader(first)
    const second = writeBundle('0a1b2c3d-0002', 'module.exports = { value: 222 }')
    expect(runThroughLoader(second)).toEqual({ exported: { value: 222 }, cacheUsed: false })
    expect(runThroughLoader(second)).toEqual({ exported: { value: 222 }, cacheUsed: true })
  })

  it('keeps no cache of a file without a build id', () => {
    const file = path.join(dir, 'plain.cjs')
    writeFileSync(file, 'module.exports = 5')
    expect(runThroughLoader(file)).toEqual({ exported: 5, cacheUsed: false })
    expect(readdirSync(dir).filter((name) => name.endsWith('.v8cache'))).toEqual([])
  })
})
