import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDesktopIfStale } from '../../../scripts/buildDesktopIfStale.mjs'
import {
  describeEmbeddedChain,
  EMBEDDED_CHAIN_PLATFORMS,
  findBundledAnvil,
} from '../../../src/main/desktop/bundledAnvil'
import { runDesktop } from '../../../src/main/desktop/runDesktop'
import type { ServiceConfigInput } from '../../../src/main/service/config'
import { createService } from '../../../src/main/service/createService'
import { asar, packageRepositoryOnce } from '../../helpers/linuxDirPackage'
import { createFakeElectron } from './fakeElectron'

/**
 * The packaging smoke test: electron-builder packs the app for Linux in --dir mode (the unpacked app, no AppImage or
 * deb, whose tools electron-builder would download) and the test checks what the package holds.
 *
 * Electron's binary cannot be downloaded on these machines (installs skip its download script, and electron-builder
 * would fetch it again for the package), so electron-builder is given a stand-in Electron distribution
 * (`electronDist`): a folder with a fake `electron` executable, copied and renamed as the real one would be. What is
 * checked is what electron-builder adds to it: the app archive, its dependencies and the resources. The build step
 * is test/helpers/linuxDirPackage.ts: one package per desktop build, shared with the console's build-path e2e test,
 * which reads the same package when it runs at the same time (npm test) rather than packing the app again.
 */

const root = path.resolve(import.meta.dirname, '../../..')
const arch = process.arch

let temp: string
let appDir: string
let archive: string
let files: string[]

describe.skipIf(process.platform !== 'linux' || !['x64', 'arm64'].includes(arch))(
  'the Linux package (electron-builder --dir, stand-in Electron)',
  () => {
    beforeAll(async () => {
      buildDesktopIfStale()
      temp = mkdtempSync(path.join(os.tmpdir(), 'opstation-packaging-'))
      ;({ appDir, archive } = await packageRepositoryOnce())
      files = asar.listPackage(archive, { isPack: false }).map((file) => file.replaceAll('\\', '/'))
    }, 240_000)

    afterAll(() => {
      if (temp) rmSync(temp, { recursive: true, force: true })
    })

    it('holds the built main, preload and console, and a package.json whose main is the built main', () => {
      expect(existsSync(path.join(appDir, 'opstation'))).toBe(true)
      expect(files).toContain('/out/main/index.js')
      expect(files).toContain('/out/preload/index.cjs')
      expect(files).toContain('/out/renderer/index.html')
      expect(files.some((file) => /^\/out\/renderer\/assets\/index-[\w-]+\.js$/.test(file))).toBe(true)
      const packaged = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'))
      expect(packaged).toMatchObject({ name: 'opstation', main: 'out/main/index.js' })
    })

    it('holds every package the built main imports', () => {
      const main = readFileSync(path.join(root, 'out', 'main', 'index.js'), 'utf8')
      const imported = new Set(
        // Rollup writes the externals as one import statement per line at the top of the bundle.
        [...main.matchAll(/^import\b[^\n]*?["']([^"'./][^"']*)["'];?$/gm)]
          .map((match) => match[1] as string)
          .filter((name) => !name.startsWith('node:') && name !== 'electron')
          .map((name) =>
            name
              .split('/')
              .slice(0, name.startsWith('@') ? 2 : 1)
              .join('/'),
          ),
      )
      expect(imported.size).toBeGreaterThan(3)
      for (const name of imported) expect(files).toContain(`/node_modules/${name}/package.json`)
    })

    it('holds no dev-only files: no tsx, esbuild, typescript or vitest, no TypeScript sources, no source maps', () => {
      const devOnly = files.filter(
        (file) =>
          /^\/node_modules\/(tsx|esbuild|@esbuild|typescript|vitest|electron|electron-builder|electron-vite|vite)(\/|$)/.test(
            file,
          ) ||
          /\/node_modules\/(tsx|esbuild|@esbuild)\//.test(file) ||
          /^\/(src|test|scripts|bin|out\/cli|out\/renderer-build)(\/|$)/.test(file) ||
          /\.(ts|mts|cts|tsx|map)$/.test(file),
      )
      expect(devOnly).toEqual([])
      expect(existsSync(path.join(appDir, 'resources', 'app.asar.unpacked'))).toBe(false)
    })

    it('carries the anvil binary unpacked in resources/anvil, where the desktop app finds it, and it runs', () => {
      const resources = path.join(appDir, 'resources')
      const anvil = findBundledAnvil(resources, 'linux')
      expect(anvil).toBe(path.join(resources, 'anvil', 'anvil'))
      const version = spawnSync(anvil as string, ['--version'], { encoding: 'utf8' })
      expect(version.status).toBe(0)
      const locked = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages[
        `node_modules/@foundry-rs/anvil-linux-${arch === 'x64' ? 'amd64' : 'arm64'}`
      ].version
      expect(version.stdout).toContain(`anvil Version: ${locked}`)
      // Not also the host's npm package inside the archive.
      expect(files.filter((file) => file.includes('@foundry-rs'))).toEqual([])
    })

    it("starts the desktop app's service on the package's anvil, and says so in the About box", async () => {
      const fake = createFakeElectron()
      const resources = path.join(appDir, 'resources')
      const given: ServiceConfigInput[] = []
      const desktop = runDesktop({
        electron: fake.electron,
        argv: [
          '/opt/Opstation/opstation',
          '--port',
          '0',
          '--data-dir',
          path.join(temp, 'data'),
          '--log-level',
          'silent',
        ],
        env: {},
        defaultApp: false,
        preloadPath: path.join(resources, 'app.asar', 'out', 'preload', 'index.cjs'),
        resourcesPath: resources,
        platform: 'linux',
        createService: (input) => {
          given.push(input)
          return createService(input)
        },
      })
      try {
        await desktop.started
        expect(fake.record.errorBoxes).toEqual([])
        expect(given[0]?.anvilPath).toBe(path.join(resources, 'anvil', 'anvil'))
        const chainId = await fetch(desktop.service()?.info().rpcUrl as string, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        }).then((response) => response.json() as Promise<{ result?: string }>)
        expect(chainId.result).toBe('0x7a69')
        fake.record.applicationMenu?.item('About Opstation').click()
        expect(fake.record.messageBoxes.at(-1)?.detail).toContain(describeEmbeddedChain('linux', arch))
      } finally {
        fake.app.quit()
        await desktop.stopped
      }
    }, 60_000)

    it('names no made-up homepage or maintainer: the Linux package is an AppImage, whose desktop file takes its name from desktopName', () => {
      const packaged = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'))
      expect(packaged.homepage).toBeUndefined()
      expect(packaged.author).toBeUndefined()
      expect(packaged.desktopName).toBe('opstation.desktop')
      const config = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')
      expect(config).not.toMatch(/^\s*(maintainer|homepage):/m)
      // electron-builder's deb target needs both: it waits for a public homepage and address.
      expect(config).toMatch(/^ {2}target: \[AppImage\]$/m)
    })
  },
)

describe('the embedded chain the packages carry', () => {
  it('has an @foundry-rs/anvil package in optionalDependencies for every platform the app names, and no other', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
    const names = EMBEDDED_CHAIN_PLATFORMS.map(
      ({ platform, arch }) => `@foundry-rs/anvil-${platform}-${arch === 'x64' ? 'amd64' : arch}`,
    )
    const declared = Object.keys(pkg.optionalDependencies).filter((name) =>
      name.startsWith('@foundry-rs/anvil-'),
    )
    expect(declared.sort()).toEqual(names.sort())
  })

  it('is named in the About box: present on those platforms, and how to do without it elsewhere', () => {
    expect(describeEmbeddedChain('darwin', 'arm64')).toMatch(/^Embedded chain: anvil \(macOS Apple silicon;/)
    expect(describeEmbeddedChain('win32', 'arm64')).toMatch(
      /^Embedded chain: none for win32 arm64 .*Windows x64 only\): use --rpc-url or --anvil-path$/,
    )
  })
})
