import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import { runCliToExit, spawnCli } from '../../helpers/spawnCli'

const tmp = () => makeTempDir('opstation-cli-')
const CORRUPT = '{"schemaVersion": 1, "accounts": [tru'

describe('opstation serve (headless)', () => {
  it('prints one ready line with the URLs and the auth token, and exits 0 on SIGTERM with the store flushed', async () => {
    const dataDir = await tmp()
    const cli = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
    expect(cli.ready).toMatchObject({
      dashboardUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      bundlerUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/31337\/[A-Za-z0-9.-]+$/),
      paymasterUrlTemplate: expect.stringMatching(/\/api\/v1\/31337\/\{apiKey\}$/),
      consoleUrl: expect.stringMatching(/\/console\/$/),
      chainId: 31337,
      authToken: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
    const file = await stat(path.join(dataDir, 'opstation.json'))
    expect(file.mode & 0o777).toBe(0o600)
  })

  it('keeps the same auth token across restarts on one data folder', async () => {
    const dataDir = await tmp()
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
    first.child.kill('SIGINT')
    expect(await first.exited).toBe(0)
    const second = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
    expect(second.ready.authToken).toBe(first.ready.authToken)
    second.child.kill('SIGTERM')
    await second.exited
  })

  it('a port already in use gives a one-line error and exit code 1', async () => {
    const first = await spawnCli(['--port', '0', '--data-dir', await tmp(), '--no-chain'])
    const port = new URL(first.ready.dashboardUrl).port
    const second = await runCliToExit(['serve', '--port', port, '--data-dir', await tmp(), '--no-chain'])
    first.child.kill('SIGTERM')
    await first.exited
    expect(second.code).toBe(1)
    expect(second.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`Port ${port} on 127.0.0.1 is already in use`),
    ])
  })

  it('a second instance on the same data folder is refused with a clear error', async () => {
    const dataDir = await tmp()
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
    const second = await runCliToExit(['serve', '--port', '0', '--data-dir', dataDir, '--no-chain'])
    first.child.kill('SIGTERM')
    await first.exited
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(/is in use by another Opstation instance \(pid \d+\)/)
  })

  it('a corrupt store stops the start with one line naming the file and the flag that starts fresh', async () => {
    const dataDir = await tmp()
    const storePath = path.join(dataDir, 'opstation.json')
    await writeFile(storePath, CORRUPT)
    const res = await runCliToExit(['serve', '--port', '0', '--data-dir', dataDir, '--no-chain'])
    expect(res.code).toBe(1)
    expect(res.stdout).toBe('')
    expect(res.stderr.trim().split('\n')).toHaveLength(1)
    expect(res.stderr).toContain(`The store ${storePath} is unreadable (invalid JSON`)
    expect(res.stderr).toContain('--reset-store')
    // Left exactly as it was, and nothing set aside.
    expect(await readFile(storePath, 'utf8')).toBe(CORRUPT)
    expect(await readdir(dataDir)).not.toContainEqual(expect.stringMatching(/corrupt/))
  })

  it.each([
    ['--reset-store', ['--reset-store'], {}],
    ['OPSTATION_RESET_STORE=1', [], { OPSTATION_RESET_STORE: '1' }],
  ])(
    'with %s a corrupt store is kept aside under a timestamped name and the service says so',
    async (_, flags, env) => {
      const dataDir = await tmp()
      await writeFile(path.join(dataDir, 'opstation.json'), CORRUPT)
      const cli = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain', ...flags], {
        env: { ...process.env, ...env },
      })
      try {
        const aside = (await readdir(dataDir)).filter((f) => f.startsWith('opstation.json.corrupt-'))
        expect(aside).toEqual([
          expect.stringMatching(/^opstation\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/),
        ])
        expect(await readFile(path.join(dataDir, aside[0]!), 'utf8')).toBe(CORRUPT)
        // The ready line (the service info the console reads) names what was set aside.
        expect(cli.ready.storeSetAside).toEqual({
          corruptCopy: path.join(dataDir, aside[0]!),
          reason: expect.stringMatching(/^invalid JSON/),
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        })
        expect(cli.stderr()).toContain('store file was unreadable; kept aside, starting empty')
      } finally {
        cli.child.kill('SIGTERM')
        expect(await cli.exited).toBe(0)
      }
      // The next start finds the new, readable store: nothing to report.
      const next = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
      expect(next.ready.storeSetAside).toBeNull()
      next.child.kill('SIGTERM')
      await next.exited
    },
  )

  it('bad flags get a one-line usage error', async () => {
    const res = await runCliToExit(['serve', '--port', 'abc'])
    expect(res.code).toBe(2)
    expect(res.stderr).toBe('opstation: --port must be a whole number from 0 to 65535 (got "abc")\n')
  })
})
