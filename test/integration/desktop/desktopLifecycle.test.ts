import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { type RunDesktopOptions, runDesktop } from '../../../src/main/desktop/runDesktop'
import { createService, type Service } from '../../../src/main/service/createService'
import { readPackageVersion } from '../../../src/main/service/util/packageRoot'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { createFakeElectron, type FakeElectron } from './fakeElectron'

/** Runs the desktop lifecycle on the fake electron, as `electron <app> <args>` would; quits it when the test ends. */
function launch(fake: FakeElectron, args: string[], options: Partial<RunDesktopOptions> = {}) {
  const desktop = runDesktop({
    electron: fake.electron,
    argv: ['/usr/bin/electron', '/opt/opstation', ...args, '--no-chain', '--log-level', 'silent'],
    env: {},
    defaultApp: true,
    preloadPath: '/opt/opstation/out/preload/index.cjs',
    platform: 'linux',
    ...options,
  })
  onTestFinished(async () => {
    if (desktop.service()) {
      fake.app.quit()
      await desktop.stopped
    }
  })
  return desktop
}

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function health(baseUrl: string): Promise<number | string> {
  try {
    return (await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) })).status
  } catch (err) {
    return (err as Error).name
  }
}

describe('the desktop app (fake electron, real service)', () => {
  it('starts the service and opens one window on the console login URL, with a tray and a menu', async () => {
    const fake = createFakeElectron()
    const dataDir = await makeTempDir('opstation-desktop-')
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir])
    await desktop.started
    const service = desktop.service() as Service
    expect(service).toBeDefined()
    expect(fake.record.errorBoxes).toEqual([])
    expect(fake.record.paths.userData).toBe(dataDir)
    const info = service.info()
    expect(fake.record.windows).toHaveLength(1)
    expect(fake.window().loadedUrl).toBe(info.consoleLoginUrl)
    expect(fake.window().options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true })
    // The login URL signs the window in.
    const login = await fetch(info.consoleLoginUrl, { redirect: 'manual' })
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly/i)
    // The preload's three channels.
    const getInfo = fake.record.ipcHandlers.get('server:getInfo') as () => { authToken: string }
    expect(getInfo().authToken).toBe(service.authToken())

    const tray = fake.tray()
    expect(tray.toolTip).toContain(info.dashboardUrl)
    tray.menu?.item('Bundler URL').click()
    expect(fake.record.clipboard).toEqual([info.bundlerUrl])
    expect(tray.menu?.item('Chain RPC URL').enabled).toBe(false) // --no-chain

    const roles = fake.record.applicationMenu?.template.map((item: { role?: string }) => item.role)
    expect(roles).toEqual(['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help'])
    fake.record.applicationMenu?.item('About Opstation').click()
    expect(fake.record.messageBoxes.at(-1)?.message).toBe(`Opstation ${readPackageVersion()}`)
    expect(fake.record.aboutPanel).toMatchObject({ applicationVersion: readPackageVersion() })
  })

  it('keeps the service running when the window is closed, says so once, and remembers the window', async () => {
    const fake = createFakeElectron()
    const dataDir = await makeTempDir('opstation-desktop-')
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir])
    await desktop.started
    const baseUrl = (desktop.service() as Service).info().dashboardUrl
    const window = fake.window()
    window.setBounds({ x: 300, y: 200, width: 1000, height: 700 })
    window.close()
    expect(window.isDestroyed()).toBe(false)
    expect(window.isVisible()).toBe(false)
    expect(await health(baseUrl)).toBe(200)
    expect(fake.record.notifications).toHaveLength(1)
    expect(fake.record.notifications[0]?.title).toMatch(/still running/)
    expect(fake.record.quitCalls).toBe(0)

    // The tray's Open Console brings it back; a second close says nothing more.
    fake.tray().menu?.item('Open Console').click()
    expect(window.isVisible()).toBe(true)
    window.close()
    expect(fake.record.notifications).toHaveLength(1)
    expect(await health(baseUrl)).toBe(200)

    const saved = JSON.parse(await readFile(path.join(dataDir, 'desktop.json'), 'utf8'))
    expect(saved).toEqual({
      backgroundNoticeShown: true,
      window: { x: 300, y: 200, width: 1000, height: 700 },
    })

    fake.app.quit()
    await desktop.stopped
    // The next start opens the window where it was, and does not repeat the notice.
    const again = createFakeElectron()
    const next = launch(again, ['--port', '0', '--data-dir', dataDir])
    await next.started
    expect(again.window().options).toMatchObject({ x: 300, y: 200, width: 1000, height: 700 })
    again.window().close()
    expect(again.record.notifications).toEqual([])
  })

  it('focuses the running window when a second instance starts, and a second instance quits', async () => {
    const fake = createFakeElectron()
    const dataDir = await makeTempDir('opstation-desktop-')
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir])
    await desktop.started
    const window = fake.window()
    window.minimize()
    fake.app.emit('second-instance', {}, ['/usr/bin/electron', '/opt/opstation'], '/')
    expect(window.isMinimized()).toBe(false)
    expect(window.isVisible()).toBe(true)
    expect(window.isFocused()).toBe(true)

    const second = createFakeElectron({ singleInstance: false })
    const other = launch(second, ['--port', '0', '--data-dir', dataDir])
    await other.started
    expect(second.record.quitCalls).toBe(1)
    expect(other.service()).toBeUndefined()
    expect(second.record.windows).toEqual([])
  })

  it('stops the service on quit (tray Quit), releasing port and data folder', async () => {
    const fake = createFakeElectron()
    const dataDir = await makeTempDir('opstation-desktop-')
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir])
    await desktop.started
    const baseUrl = (desktop.service() as Service).info().dashboardUrl
    const began = Date.now()
    fake.tray().menu?.item('Quit Opstation').click()
    await desktop.stopped
    expect(Date.now() - began).toBeLessThan(10_000)
    expect(fake.record.quitted).toBe(true)
    expect(fake.record.exitCode).toBeUndefined()
    expect(fake.window().isDestroyed()).toBe(true)
    expect(fake.tray().destroyed).toBe(true)
    expect(await health(baseUrl)).not.toBe(200)
    expect(existsSync(path.join(dataDir, 'opstation.lock'))).toBe(false)
  })

  it('exits anyway when the service does not stop within the time-out', async () => {
    const fake = createFakeElectron()
    const dataDir = await makeTempDir('opstation-desktop-')
    let real: Service | undefined
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir], {
      quitTimeoutMs: 300,
      createService: async (input) => {
        real = await createService(input)
        return { ...real, close: () => new Promise<void>(() => {}) }
      },
    })
    onTestFinished(() => real?.close())
    await desktop.started
    const began = Date.now()
    fake.app.quit()
    await desktop.stopped
    expect(Date.now() - began).toBeGreaterThanOrEqual(250)
    expect(fake.record.exitCode).toBe(1)
  })

  it('tells a start-up error in a native dialog, with what to do, and exits', async () => {
    const fake = createFakeElectron()
    const dataDir = await makeTempDir('opstation-desktop-')
    await writeFile(path.join(dataDir, 'opstation.json'), '{ not json', { mode: 0o600 })
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir])
    await desktop.started
    expect(desktop.service()).toBeUndefined()
    expect(fake.record.windows).toEqual([])
    expect(fake.record.errorBoxes).toHaveLength(1)
    expect(fake.record.errorBoxes[0]?.title).toBe('Opstation could not start')
    expect(fake.record.errorBoxes[0]?.content).toContain('--reset-store')
    expect(fake.record.exitCode).toBe(1)

    const badFlag = createFakeElectron()
    await launch(badFlag, ['--port', 'eighty']).started
    expect(badFlag.record.errorBoxes[0]?.content).toContain('--port must be a whole number')
    expect(badFlag.record.exitCode).toBe(2)
  })

  it('offers the console of the headless instance that holds the data folder', async () => {
    const dataDir = await makeTempDir('opstation-desktop-')
    const port = await freePort()
    const headless = await spawnCli(['--port', String(port), '--data-dir', dataDir, '--no-chain'])
    onTestFinished(async () => {
      headless.child.kill('SIGTERM')
      await headless.exited
    })
    const fake = createFakeElectron({ messageBoxResponse: 0 })
    const desktop = launch(fake, ['--port', '0', '--data-dir', dataDir])
    await desktop.started
    expect(desktop.service()).toBeUndefined()
    const box = fake.record.messageBoxes[0]
    expect(box?.message).toContain(`in use by another Opstation (pid ${headless.child.pid})`)
    expect(box?.buttons).toEqual(['Open its console', 'Quit'])
    expect(fake.record.openedExternal).toEqual([`http://127.0.0.1:${port}/console/`])
    expect(fake.record.exitCode).toBe(1)
  })

  it('says how to stop an instance holding the data folder whose console it cannot find', async () => {
    const dataDir = await makeTempDir('opstation-desktop-')
    // Held by a service in this process (not an `opstation serve` command line): its address is unknown.
    const holder = await createService({ port: 0, dataDir, noChain: true, logLevel: 'silent' })
    onTestFinished(() => holder.close())
    const fake = createFakeElectron()
    await launch(fake, ['--port', '0', '--data-dir', dataDir]).started
    const box = fake.record.messageBoxes[0]
    expect(box?.detail).toContain(`kill ${process.pid}`)
    expect(box?.detail).toContain('--data-dir')
    expect(box?.buttons).toEqual(['Quit'])
    expect(fake.record.openedExternal).toEqual([])
    expect(fake.record.exitCode).toBe(1)
  })

  it('tells the user when the configured port is taken, and does not move to another port', async () => {
    const taken = net.createServer()
    const sockets = new Set<net.Socket>()
    taken.on('connection', (socket) => sockets.add(socket))
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => taken.close(() => resolve()))
    })
    const port = (taken.address() as net.AddressInfo).port
    const fake = createFakeElectron()
    const desktop = launch(fake, [
      '--port',
      String(port),
      '--data-dir',
      await makeTempDir('opstation-desktop-'),
    ])
    await desktop.started
    expect(desktop.service()).toBeUndefined()
    expect(fake.record.windows).toEqual([])
    const box = fake.record.messageBoxes[0]
    expect(box?.message).toBe(`Port ${port} is already in use`)
    expect(box?.detail).toContain('--port')
    expect(fake.record.exitCode).toBe(1)
  })

  it('offers the console of another Opstation that has the configured port', async () => {
    const port = await freePort()
    const other = await createService({
      port,
      dataDir: await makeTempDir('opstation-desktop-'),
      noChain: true,
      logLevel: 'silent',
    })
    onTestFinished(() => other.close())
    const fake = createFakeElectron({ messageBoxResponse: 1 })
    await launch(fake, ['--port', String(port), '--data-dir', await makeTempDir('opstation-desktop-')])
      .started
    expect(fake.record.messageBoxes[0]?.message).toBe(`Port ${port} is already in use, by another Opstation`)
    expect(fake.record.openedExternal).toEqual([]) // the user chose Quit
    expect(fake.record.exitCode).toBe(1)
  })
})
