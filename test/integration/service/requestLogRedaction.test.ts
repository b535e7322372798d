import { describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'

/**
 * The JSON lines the service's logger wrote so far (stderr also has the one-line summary for people); a line still
 * being written is left for the next read.
 */
function logLines(stderr: string): Record<string, any>[] {
  return stderr
    .slice(0, stderr.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
}

describe('request logs at info', () => {
  it('never print a key or token: the bundler key, apiKeys in RPC and console paths, authToken headers and query strings', async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const cli = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain', '--log-level', 'info'])
    const { dashboardUrl, bundlerUrl, authToken } = cli.ready as {
      dashboardUrl: string
      bundlerUrl: string
      authToken: string
    }
    const bundlerKey = bundlerUrl.split('/').at(-1)!
    const rpc = (url: string, init: RequestInit = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
    try {
      const created = await fetch(`${dashboardUrl}/api/v2/public/sdk/paymaster`, {
        method: 'POST',
        headers: { authToken, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'log-test', type: 'HYBRID', chainId: 31337, version: '1.1.0' }),
      })
      expect(created.status).toBe(200)
      const { apiKey } = ((await created.json()) as { data: { apiKey: string } }).data

      await rpc(bundlerUrl)
      await rpc(`${bundlerUrl}/`)
      await rpc(`${dashboardUrl}/api/v1/31337/${apiKey}`)
      await rpc(`${dashboardUrl}/api/v2/31337/${bundlerKey}/not-a-route`)
      await fetch(`${dashboardUrl}/console/api/dapps/${apiKey}/policies`, { headers: { authToken } })
      await fetch(`${dashboardUrl}/console/api/status?authToken=${authToken}&limit=5`)
      await fetch(`${dashboardUrl}/console/?token=${authToken}`)
      const stream = new AbortController()
      const events = await fetch(`${dashboardUrl}/console/api/events?authToken=${authToken}`, {
        signal: stream.signal,
      })
      expect(events.status).toBe(200)
      stream.abort()
      await fetch(`${dashboardUrl}/api/v2/public/sdk/smart-contract`, { headers: { authToken, apiKey } })

      // The log lines reach stderr shortly after the answers: wait until every request's line has, and the line
      // of its completion (the event stream's, aborted, has none).
      const readLines = () => {
        const lines = logLines(cli.stderr())
        const incoming = lines.filter((l) => l.msg === 'incoming request')
        const completed = new Set(lines.filter((l) => l.msg === 'request completed').map((l) => l.reqId))
        const pending = incoming.filter(
          (l) => !completed.has(l.reqId) && !String(l.req.url).startsWith('/console/api/events'),
        )
        return { lines, urls: incoming.map((l) => l.req.url as string), pending }
      }
      await vi.waitFor(
        () => {
          const { urls, pending } = readLines()
          expect(urls).toEqual(
            expect.arrayContaining([
              '/api/v2/31337/[redacted]',
              '/api/v2/31337/[redacted]/',
              '/api/v1/31337/[redacted]',
              '/api/v2/31337/[redacted]/not-a-route',
              '/console/api/dapps/[redacted]/policies',
              '/console/api/status?authToken=[redacted]&limit=5',
              '/console/?token=[redacted]',
              '/console/api/events?authToken=[redacted]',
              '/api/v2/public/sdk/smart-contract',
            ]),
          )
          expect(pending).toEqual([])
        },
        { timeout: 10_000, interval: 20 },
      )
      const { lines } = readLines()
      const logged = lines.map((l) => JSON.stringify(l)).join('\n')
      for (const secret of [authToken, bundlerKey, apiKey]) expect(logged).not.toContain(secret)
    } finally {
      cli.child.kill('SIGTERM')
      await cli.exited
    }
  })
})
