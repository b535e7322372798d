import { spawn } from 'node:child_process'
import { createRpc } from './createRpc'
import { readStat } from './startServiceProcess'

/** The smallest JSON-RPC server node:http makes: parses the body, answers a constant. Runs in its own process. */
const SERVER = `
const http = require('node:http')
const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'))
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length })
    res.end(answer)
  })
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

const serverCpuMs = (pid: number) => readStat(pid)?.cpuMs ?? Number.NaN

/**
 * What one JSON-RPC round trip over node:http costs on this machine with nothing behind it: requests per second
 * from `clients` concurrent callers, and the CPU per request of the server and of the callers (the bench's own
 * client). Every call the service answers pays at least this, so it is the machine's floor, as raw handleOps is
 * the chain's.
 */
export async function measureHttpFloor(clients: number, requests = 4000) {
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.once('exit', (code) =>
        reject(new Error(`the floor's HTTP server exited (${code}) before listening`)),
      )
      server.stdout.once('data', (d) => resolve(Number(String(d).trim())))
    })
    const url = `http://127.0.0.1:${port}/`
    const rpc = createRpc()
    for (let i = 0; i < 300; i++) await rpc(url, 'eth_chainId', [])
    const serverStart = serverCpuMs(server.pid as number)
    const clientStart = process.cpuUsage()
    const started = performance.now()
    let sent = 0
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (sent < requests) {
          sent++
          await rpc(url, 'eth_chainId', [])
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const client = process.cpuUsage(clientStart)
    return {
      requestsPerSecond: requests / seconds,
      serverCpuUs: ((serverCpuMs(server.pid as number) - serverStart) * 1000) / requests,
      clientCpuUs: (client.user + client.system) / requests,
    }
  } finally {
    server.kill()
  }
}
