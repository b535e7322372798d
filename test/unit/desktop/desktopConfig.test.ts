import { describe, expect, it } from 'vitest'
import { UsageError } from '../../../src/main/cli'
import { desktopServeArgs, readDesktopConfig } from '../../../src/main/desktop/desktopConfig'

describe('the desktop app reads the flags of opstation serve', () => {
  it('after the executable, and after the app folder when Electron runs an unpackaged app', () => {
    expect(desktopServeArgs(['/opt/Opstation/opstation', '--port', '0'], false)).toEqual(['--port', '0'])
    expect(desktopServeArgs(['/usr/bin/electron', '/src/opstation', '--port', '0'], true)).toEqual([
      '--port',
      '0',
    ])
  })

  it("leaves out Electron's, Chromium's and Node's own switches and macOS's -psn_ argument", () => {
    const argv = ['electron', '.', '--inspect=9229', '--no-sandbox', '-psn_0_12345', '--data-dir', '/d']
    expect(desktopServeArgs(argv, true)).toEqual(['--data-dir', '/d'])
  })

  it('with their defaults and environment variables (flags win)', () => {
    const env = { OPSTATION_DATA_DIR: '/env/dir', OPSTATION_RESET_STORE: '1' }
    const config = readDesktopConfig(['exe', '--rpc-url', 'http://127.0.0.1:8545'], env, false)
    expect(config).toMatchObject({
      port: 4337,
      host: '127.0.0.1',
      dataDir: '/env/dir',
      rpcUrl: 'http://127.0.0.1:8545',
      resetStore: true,
    })
    expect(readDesktopConfig(['exe', '--data-dir', '/flag/dir'], env, false).dataDir).toBe('/flag/dir')
  })

  it('takes OPSTATION_PORT when no --port is given', () => {
    expect(readDesktopConfig(['exe'], { OPSTATION_PORT: '5000' }, false).port).toBe(5000)
    expect(readDesktopConfig(['exe', '--port=6000'], { OPSTATION_PORT: '5000' }, false).port).toBe(6000)
    expect(() => readDesktopConfig(['exe'], { OPSTATION_PORT: 'x' }, false)).toThrow(UsageError)
  })

  it('rejects what opstation serve rejects, with its message', () => {
    expect(() => readDesktopConfig(['exe', '--port', '70000'], {}, false)).toThrow(
      /--port must be a whole number from 0 to 65535/,
    )
    expect(() => readDesktopConfig(['exe', '--prot', '1'], {}, false)).toThrow(UsageError)
  })
})
