#!/usr/bin/env node
/**
 * `npm run bench:compare -- <commit> [runs]`: the unsafe bench of the working tree and of <commit>, run in turn
 * (A B B A A B ...) so that both see the same minutes of a machine whose speed drifts, then the median of each
 * figure. The other commit is checked out in a temporary git worktree that shares this node_modules, and removed
 * afterwards. The last line is each figure's ratio, working tree over <commit> (below 1 for a time: faster).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const [commit, runsArg] = process.argv.slice(2)
if (!commit) {
  console.error('usage: npm run bench:compare -- <commit> [runs, default 6]')
  process.exit(2)
}
const runs = Number(runsArg ?? 6)
const here = path.resolve(import.meta.dirname, '..')
const worktree = path.join(mkdtempSync(path.join(os.tmpdir(), 'opstation-compare-')), 'tree')

/** Figures read off the bench's table (NaN where an older bench did not print one); unprefixed rows are the warm ones. */
const FIGURES = {
  estimate: /unsafe\s+estimate \(eth_estimateUserOperationGas\)\s+([\d.]+) ms/,
  send: /unsafe\s+send \(eth_sendUserOperation\)\s+([\d.]+) ms/,
  sendToReceipt: /unsafe\s+send-to-receipt\s+([\d.]+) ms/,
  loopOpsPerSecond: /unsafe\s+send-to-receipt\s+[\d.]+ ms\s+[\d.]+ ms\s+(\d+)/,
  serviceCpuMs: /unsafe\s+send-to-receipt .*loop; CPU ms\/op: service ([\d.]+)/,
  anvilCpuMs: /unsafe\s+send-to-receipt .*loop; CPU ms\/op: service .*?, anvil ([\d.]+)/,
  benchCpuMs: /unsafe\s+send-to-receipt .*loop; CPU ms\/op: service .*?, anvil .*?, bench ([\d.]+)/,
  coldEstimate: /unsafe\s+cold: estimate \(eth_estimateUserOperationGas\)\s+([\d.]+) ms/,
  coldSend: /unsafe\s+cold: send \(eth_sendUserOperation\)\s+([\d.]+) ms/,
  coldServiceCpuMs: /unsafe\s+cold: send-to-receipt .*loop; CPU ms\/op: service ([\d.]+)/,
  aloneSend: /unsafe\s+1 client: send\s+([\d.]+) ms/,
  aloneSendToReceipt: /unsafe\s+1 client: send-to-receipt\s+([\d.]+) ms/,
  trace: /unsafe\s+trace \(opstation_traceUserOperation\)\s+([\d.]+) ms/,
  traceKept: /unsafe\s+trace, asked again \(kept\)\s+([\d.]+) ms/,
  burstOpsPerSecond: /burst: send, then all included\s+[\d.]+ ms\s+[\d.]+ ms\s+(\d+)/,
  sdkOperation: /sdk loop\s+complete operation\s+([\d.]+) ms/,
  sdkOperationP95: /sdk loop\s+complete operation\s+[\d.]+ ms\s+([\d.]+) ms/,
  sdkServiceCpuMs: /sdk loop\s+complete operation .*CPU ms\/op: service ([\d.]+)/,
  sdkAnvilCpuMs: /sdk loop\s+complete operation .*CPU ms\/op: service .*?, anvil ([\d.]+)/,
  sdkNonce: /sdk loop\s+nonce \(.*?\)\s+([\d.]+) ms/,
  sdkGasPrice: /sdk loop\s+gas price \(.*?\)\s+([\d.]+) ms/,
  sdkStub: /sdk loop\s+stub \S+\s+([\d.]+) ms/,
  sdkEstimate: /sdk loop\s+estimate \S+\s+([\d.]+) ms/,
  sdkPaymasterData: /sdk loop\s+paymaster data \S+\s+([\d.]+) ms/,
  sdkSend: /sdk loop\s+send \S+\s+([\d.]+) ms/,
  sdkReceipt: /sdk loop\s+receipt \S+\s+([\d.]+) ms/,
}
/** BENCH_COMPARE_SDK_ONLY=1: the sequential SDK loop alone (a minute instead of the whole unsafe bench). */
const sdkOnly = process.env.BENCH_COMPARE_SDK_ONLY === '1'

/**
 * The tree's own unsafe bench, then the sequential SDK loop of this tree's bench (runSdkLoopBench.ts) driving that
 * tree's service: an older bench has no such row, and the same client on both sides is what compares.
 */
function benchOnce(dir) {
  const bench = sdkOnly
    ? ''
    : execFileSync(process.execPath, ['bin/bench.js'], {
        cwd: dir,
        env: { ...process.env, BENCH_MODES: 'unsafe', BENCH_SDK_LOOP: '0' },
        encoding: 'utf8',
      })
  const sdkLoop = execFileSync(process.execPath, ['--import', 'tsx', 'bench/runSdkLoopBench.ts', dir], {
    cwd: here,
    encoding: 'utf8',
  })
  const out = bench + sdkLoop
  return Object.fromEntries(Object.entries(FIGURES).map(([name, re]) => [name, Number(re.exec(out)?.[1])]))
}

function median(values) {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

execFileSync('git', ['worktree', 'add', '--detach', worktree, commit], { cwd: here, stdio: 'ignore' })
try {
  symlinkSync(path.join(here, 'node_modules'), path.join(worktree, 'node_modules'), 'dir')
  const trees = { 'working tree': here, [commit]: worktree }
  const results = Object.fromEntries(Object.keys(trees).map((name) => [name, []]))
  for (let run = 0; run < runs; run++) {
    const order = run % 2 ? Object.keys(trees).reverse() : Object.keys(trees)
    for (const name of order) {
      const figures = benchOnce(trees[name])
      results[name].push(figures)
      console.log(`${name.padEnd(14)} ${JSON.stringify(figures)}`)
    }
  }
  console.log(`\nmedians of ${runs} runs each (ms; ops/s):`)
  for (const [name, rows] of Object.entries(results)) {
    const cells = Object.keys(FIGURES).map(
      (figure) => `${figure} ${median(rows.map((r) => r[figure])).toFixed(1)}`,
    )
    console.log(`${name.padEnd(14)} ${cells.join('  ')}`)
  }
  const [mine, theirs] = Object.values(results)
  const ratios = Object.keys(FIGURES).map((figure) => {
    const ratio = median(mine.map((r) => r[figure])) / median(theirs.map((r) => r[figure]))
    return `${figure} ${ratio.toFixed(2)}`
  })
  console.log(`${'ratio'.padEnd(14)} ${ratios.join('  ')}`)
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: here, stdio: 'ignore' })
  rmSync(path.dirname(worktree), { recursive: true, force: true })
}
