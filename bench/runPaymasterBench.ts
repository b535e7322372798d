/**
 * `npx tsx bench/runPaymasterBench.ts`: starts `opstation serve` in its own process (fresh data folder, embedded
 * anvil) and prints pm_sponsorUserOperation latency, one request at a time and with 4 and 16 in flight, for a
 * v0.6 operation (Smart Account v2, as the Biconomy SDK sends it) and a v0.7 one (SimpleAccount v0.7).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { benchSponsorUserOperation } from './benchSponsorUserOperation'
import { startServiceProcess } from './startServiceProcess'

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-pm-bench-'))
const service = await startServiceProcess({ dataDir, unsafe: false })
try {
  const store = JSON.parse(await readFile(path.join(dataDir, 'opstation.json'), 'utf8'))
  const url = new URL(service.bundlerUrl)
  const chainId = Number(/\/api\/v2\/(\d+)\//.exec(url.pathname)?.[1])
  console.log(
    `\npm_sponsorUserOperation (SPONSORED, calculateGasLimits true, no webhook), ${os.cpus().length} CPUs, Node ${process.version}\n`,
  )
  for (const [version, concurrency] of [
    ['0.6', 1],
    ['0.6', 4],
    ['0.6', 16],
    ['0.7', 1],
    ['0.7', 4],
    ['0.7', 16],
  ] as const) {
    const r = await benchSponsorUserOperation({
      entryPointVersion: version,
      baseUrl: url.origin,
      authToken: store.accounts[0].authToken,
      rpcUrl: service.rpcUrl,
      chainId,
      operations: 300,
      concurrency,
    })
    console.log(
      `v${version} concurrency ${String(concurrency).padStart(2)}: p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  max ${r.max.toFixed(1)} ms  ${r.opsPerSecond.toFixed(0)} req/s`,
    )
  }
} finally {
  await service.stop()
  await rm(dataDir, { recursive: true, force: true })
}
