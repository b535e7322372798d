import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import type { FakeElectron } from './fakeElectron'

// src/main/index.ts imports `electron`: here it gets the fake module, so the real entry runs under plain Node.
const fake = vi.hoisted(() => ({ current: undefined as FakeElectron | undefined }))
vi.mock('electron', async () => {
  const { createFakeElectron } = await import('./fakeElectron')
  fake.current = createFakeElectron()
  return fake.current.electron
})

const argv = process.argv
afterEach(() => {
  process.argv = argv
})

describe('the Electron entry (src/main/index.ts)', () => {
  it('passes the electron API and the command line to the desktop lifecycle', async () => {
    const dataDir = await makeTempDir('opstation-desktop-entry-')
    // As a packaged app: the executable, then the user's flags.
    process.argv = ['/opt/Opstation/opstation', '--port', '0', '--data-dir', dataDir, '--no-chain']
    await import('../../../src/main/index')
    const electron = fake.current as FakeElectron
    await vi.waitFor(() => expect(electron.record.windows).toHaveLength(1), { timeout: 20_000 })
    expect(electron.record.paths.userData).toBe(dataDir)
    expect(electron.window().loadedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/\?token=/)
    expect(electron.window().options.webPreferences.preload).toMatch(/preload[/\\]index\.cjs$/)
    electron.app.quit()
    await vi.waitFor(() => expect(electron.record.quitted).toBe(true), { timeout: 15_000 })
    expect(electron.record.exitCode).toBeUndefined()
  })
})
