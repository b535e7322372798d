/**
 * `npm run bench` (`BENCH_MODES=unsafe npm run bench` for one mode): drives a fresh Opstation service (its own process, fresh data folder, embedded anvil) over
 * HTTP with 16 concurrent clients and prints p50/p95 latency and ops/s for estimate, send and send-to-receipt
 * (200 UserOperations, safe then unsafe mode), the sustained inclusion rate of a burst of 200, the raw
 * handleOps throughput of the same chain (the physical limit), estimated versus actual gas, the service RSS, and
 * the CPU time per operation of the service, of its anvil and of the bench's own clients (Linux /proc), since all
 * three share the machine's cores. BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=<dir>' profiles the service.
 * `BENCH_HISTORY=<n>` runs the history bench instead (runHistoryBench.ts): n operations, then the data folder, a
 * restart and the first operations' receipts. Then the revert bench (runRevertBench.ts): evm_revert of the whole stack
 * with 1,000 operations in the history.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  createPublicClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
} from 'viem'
import { entryPoint06Abi, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { benchSdkLoop } from './benchSdkLoop'
import { benchSponsorUserOperation } from './benchSponsorUserOperation'
import { createBenchClient, type Op, type Timings } from './createBenchClient'
import { createRpc, waitForReceipt } from './createRpc'
import { BENCH_TABLE_HEADER, formatTable } from './formatTable'
import { measureHttpFloor } from './measureHttpFloor'
import { runHistoryBench } from './runHistoryBench'
import { runRevertBench } from './runRevertBench'
import { type ServiceProcess, startServiceProcess } from './startServiceProcess'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16)
const OPERATIONS = 200
/** Mined operations explained one at a time (opstation_traceUserOperation), first asked then asked again. */
const TRACES = 20
/** Operations run (not measured) before the measured phases: a chain grown by use. */
const GROW = Number(process.env.BENCH_GROW ?? 0)
/**
 * `BENCH_HISTORY=<n>`: the history bench (n operations, the data folder, a restart) instead of the modes; set without a
 * number (`BENCH_HISTORY=1` or `=on`... anything not above 1), 20,000 operations: enough for the slope.
 */
const HISTORY = ((value) => (value === undefined ? 0 : Number(value) > 1 ? Number(value) : 20_000))(
  process.env.BENCH_HISTORY,
)
/**
 * Operations run (not measured) between the cold loop and the warm measurements, in both modes: a service that has
 * been running for a while.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000)
const RAW_BUNDLE_SIZE = 10
/** EntryPoint versions measured: v0.6 always, v0.7 too unless BENCH_ENTRY_POINTS=0.6. */
const ENTRY_POINTS = (process.env.BENCH_ENTRY_POINTS ?? '0.6,0.7').split(',')

const rpc = createRpc()
/**
 * Unstaked factory's UserOperations the mempool holds at once (ERC-7562 UREP-020: SAME_UNSTAKED_ENTITY_MEMPOOL_COUNT,
 * 10): more clients than that deploy through the one factory a group at a time, or the rest are refused.
 */
const DEPLOYS_AT_ONCE = 8

/** Each client deploys its account (one operation with initCode), at most DEPLOYS_AT_ONCE pending at a time. */
async function deployAccounts(
  clients: readonly { runOperations: (n: number, o: { deploy: true }) => Promise<unknown> }[],
) {
  for (let i = 0; i < clients.length; i += DEPLOYS_AT_ONCE)
    await Promise.all(
      clients.slice(i, i + DEPLOYS_AT_ONCE).map((client) => client.runOperations(1, { deploy: true })),
    )
}

/** Client i's share of n operations. */
const shareOf = (n: number, i: number) => Math.floor(n / CLIENTS) + (i < n % CLIENTS ? 1 : 0)
const mergeTimings = (all: Timings[]): Timings => ({
  hashes: all.flatMap((t) => t.hashes),
  estimate: all.flatMap((t) => t.estimate),
  send: all.flatMap((t) => t.send),
  sendToReceipt: all.flatMap((t) => t.sendToReceipt),
  gas: all.flatMap((t) => t.gas),
})

/** CPU used from now on by the service, its node (anvil) and this bench process, per operation. */
function startCpu(service: ServiceProcess) {
  const start = { ...service.cpuMs(), bench: process.cpuUsage() }
  return {
    perOperation(operations: number) {
      const now = service.cpuMs()
      const bench = process.cpuUsage(start.bench)
      const per = (ms: number) => (ms / operations).toFixed(1)
      const kernel = (ms: number, of: number) => `${per(of)} (kernel ${per(ms)})`
      return `CPU ms/op: service ${kernel(now.serviceKernel - start.serviceKernel, now.service - start.service)}, anvil ${kernel(now.nodeKernel - start.nodeKernel, now.node - start.node)}, bench ${kernel(bench.system / 1000, (bench.user + bench.system) / 1000)}`
    },
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

const rows: string[][] = []
const fmt = (ms: number) => `${ms.toFixed(1)} ms`
function report(mode: string, name: string, values: number[] | null, opsPerSecond: number | null, note = '') {
  rows.push([
    mode,
    name,
    values ? fmt(percentile(values, 50)) : '',
    values ? fmt(percentile(values, 95)) : '',
    opsPerSecond === null ? '' : opsPerSecond.toFixed(0),
    note,
  ])
}

async function benchMode(unsafe: boolean) {
  const mode = unsafe ? 'unsafe' : 'safe'
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-bench-'))
  const service = await startServiceProcess({ dataDir, unsafe })
  try {
    const chain = defineChain({
      id: Number(await rpc(service.rpcUrl, 'eth_chainId', []).then(BigInt)),
      name: 'bench',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [service.rpcUrl] } },
    })
    const publicClient = createPublicClient({ chain, transport: http(service.rpcUrl) }) as PublicClient
    const options = { rpcUrl: service.rpcUrl, bundlerUrl: service.bundlerUrl, chainId: chain.id }
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => createBenchClient(options)))
    const first = clients[0] as (typeof clients)[number]

    // Every client deploys its account through initCode (not measured).
    await deployAccounts(clients)
    if (GROW > 0) await Promise.all(clients.map((client, i) => client.runOperations(shareOf(GROW, i))))

    // 16 clients each looping estimate → send → receipt for `OPERATIONS` operations, paying fresh addresses.
    const runLoop = async (label: string) => {
      const cpu = startCpu(service)
      const started = performance.now()
      const timings = mergeTimings(
        await Promise.all(clients.map((client, i) => client.runOperations(shareOf(OPERATIONS, i)))),
      )
      const loopSeconds = (performance.now() - started) / 1000
      report(mode, `${label}estimate (eth_estimateUserOperationGas)`, timings.estimate, null)
      report(mode, `${label}send (eth_sendUserOperation)`, timings.send, null)
      report(
        mode,
        `${label}send-to-receipt`,
        timings.sendToReceipt,
        OPERATIONS / loopSeconds,
        `${CLIENTS} clients, estimate→send→receipt loop; ${cpu.perOperation(OPERATIONS)}`,
      )
      return timings
    }

    // 1. Cold: the first operations of a service just started (its JIT compiler, and the bench's, still at work).
    await runLoop('cold: ')

    // Warm-up (not measured): operations paying the accounts themselves, so that the chain gains no account.
    await Promise.all(clients.map((client, i) => client.runOperations(shareOf(WARMUP, i), { toSelf: true })))

    // 2. One client alone (reference: the service's own latency without queueing).
    const alone = await first.runOperations(20)
    report(mode, '1 client: estimate', alone.estimate, null)
    report(mode, '1 client: send', alone.send, null)
    report(mode, '1 client: send-to-receipt', alone.sendToReceipt, null)

    // 3. Warm: the same loop again.
    const timings = await runLoop('')
    const ratios = timings.gas.map((g) => Number(g.used) / Number(g.limits))
    report(
      mode,
      'gas used / estimated limits',
      null,
      null,
      `min ${(Math.min(...ratios) * 100).toFixed(1)} %, median ${(percentile(ratios, 50) * 100).toFixed(1)} %, max ${(Math.max(...ratios) * 100).toFixed(1)} % (never over 100 %: ${ratios.every((r) => r <= 1)})`,
    )

    // 3b. The same warm loop with v0.7 accounts (SimpleAccount v0.7, EntryPointSimulations through a state
    // override): the new EntryPoint against v0.6 on the same service. A tenth of the warm-up first.
    if (ENTRY_POINTS.includes('0.7')) {
      const v07Clients = await Promise.all(
        Array.from({ length: CLIENTS }, () => createBenchClient({ ...options, entryPointVersion: '0.7' })),
      )
      await deployAccounts(v07Clients)
      await Promise.all(
        v07Clients.map((client, i) =>
          client.runOperations(shareOf(Math.floor(WARMUP / 10), i), { toSelf: true }),
        ),
      )
      const cpu07 = startCpu(service)
      const started07 = performance.now()
      const timings07 = mergeTimings(
        await Promise.all(v07Clients.map((client, i) => client.runOperations(shareOf(OPERATIONS, i)))),
      )
      const seconds07 = (performance.now() - started07) / 1000
      report(mode, 'v0.7: estimate (eth_estimateUserOperationGas)', timings07.estimate, null)
      report(mode, 'v0.7: send (eth_sendUserOperation)', timings07.send, null)
      report(
        mode,
        'v0.7: send-to-receipt',
        timings07.sendToReceipt,
        OPERATIONS / seconds07,
        `${CLIENTS} clients, SimpleAccount v0.7, estimate→send→receipt loop; ${cpu07.perOperation(OPERATIONS)}`,
      )
    }

    // 4. Burst: every client sends its share pre-signed, back to back, without waiting; included ops/s.
    const template = await first.estimateSelfCall()
    const burst = await Promise.all(
      clients.map((client, i) => client.signSelfCalls(shareOf(OPERATIONS, i), template)),
    )
    const cpu = startCpu(service)
    let started = performance.now()
    const sent = await Promise.all(clients.map((client, i) => client.sendOperations(burst[i] ?? [])))
    // A sender's operations are included in nonce order: wait for each client's last one, then check them all.
    await Promise.all(sent.map(({ hashes }) => waitForReceipt(rpc, service.bundlerUrl, hashes.at(-1) as Hex)))
    const burstSeconds = (performance.now() - started) / 1000
    await Promise.all(
      sent.flatMap(({ hashes }) => hashes.map((h) => waitForReceipt(rpc, service.bundlerUrl, h))),
    )
    report(
      mode,
      'burst: send, then all included',
      sent.flatMap(({ sendMs }) => sendMs),
      OPERATIONS / burstSeconds,
      `${CLIENTS} clients sending pre-signed ops back to back; ${cpu.perOperation(OPERATIONS)}`,
    )

    // 4b. Explaining a mined operation (opstation_traceUserOperation), one at a time: first asked (the bundle's
    // transaction traced with debug_traceTransaction, decoded, and kept with the operation's history), then asked
    // again (answered from what was kept).
    const traced = sent.flatMap(({ hashes }) => hashes).slice(0, TRACES)
    const timeTraces = async () => {
      const ms: number[] = []
      for (const hash of traced) {
        const at = performance.now()
        const answer = await rpc(service.bundlerUrl, 'opstation_traceUserOperation', [hash])
        ms.push(performance.now() - at)
        if ((answer as { status?: string }).status !== 'mined')
          throw new Error(`trace of ${hash}: ${JSON.stringify(answer)}`)
      }
      return ms
    }
    report(
      mode,
      'trace (opstation_traceUserOperation)',
      await timeTraces(),
      null,
      `${TRACES} mined operations, first asked, one at a time`,
    )
    report(
      mode,
      'trace, asked again (kept)',
      await timeTraces(),
      null,
      'the same operations: answered from their history',
    )

    // 5. Raw handleOps on the same chain, bypassing the service (nonce key 1, own funded EOA).
    if (unsafe) {
      const sender = privateKeyToAccount(generatePrivateKey())
      await rpc(service.rpcUrl, 'anvil_setBalance', [sender.address, numberToHex(10n ** 22n)])
      const key = 1n << 64n
      // A new nonce key costs a fresh storage slot in the EntryPoint: estimate with it.
      const rawTemplate = await first.estimateSelfCall(key)
      const byClient = await Promise.all(
        clients.map((client, i) => client.signSelfCalls(shareOf(OPERATIONS, i), rawTemplate, key)),
      )
      // Bundles never hold two nonces of one sender out of order: ops are laid out round-robin by sender
      // (operation n is client n % 16's (n / 16)th).
      const raw: Op[] = []
      for (let n = 0; n < OPERATIONS; n++) raw.push(byClient[n % CLIENTS]?.[Math.floor(n / CLIENTS)] as Op)
      started = performance.now()
      // Locally signed transactions, one node call to send and one (or a few) to read the receipt: as close to
      // the chain's own speed as a client gets.
      const block = await publicClient.getBlock()
      const maxPriorityFeePerGas = 1_000_000_000n
      const maxFeePerGas = (block.baseFeePerGas ?? 0n) * 3n + maxPriorityFeePerGas
      let nonce = await publicClient.getTransactionCount({ address: sender.address })
      for (let i = 0; i < raw.length; i += RAW_BUNDLE_SIZE) {
        const bundle = raw.slice(i, i + RAW_BUNDLE_SIZE)
        const signed = await sender.signTransaction({
          chainId: chain.id,
          type: 'eip1559',
          to: entryPoint06Address,
          data: encodeFunctionData({
            abi: entryPoint06Abi,
            functionName: 'handleOps',
            args: [bundle, sender.address],
          }),
          gas: 10_000_000n,
          nonce: nonce++,
          maxFeePerGas,
          maxPriorityFeePerGas,
        })
        const hash = await rpc(service.rpcUrl, 'eth_sendRawTransaction', [signed])
        let receipt: { status: Hex } | null = null
        while (!receipt) receipt = await rpc(service.rpcUrl, 'eth_getTransactionReceipt', [hash])
        if (receipt.status !== '0x1') throw new Error(`raw handleOps ${hash} reverted`)
      }
      report(
        'chain',
        `raw handleOps (bundles of ${RAW_BUNDLE_SIZE})`,
        null,
        OPERATIONS / ((performance.now() - started) / 1000),
        'same anvil, no service: the physical limit',
      )
    }
    // pm_sponsorUserOperation (SPONSORED, calculateGasLimits true, no webhook) on the same service.
    if (!unsafe) {
      const store = JSON.parse(await readFile(path.join(dataDir, 'opstation.json'), 'utf8'))
      for (const [version, concurrency] of [
        ['0.6', 1],
        ['0.6', CLIENTS],
        ['0.7', 1],
        ['0.7', CLIENTS],
      ] as const) {
        const r = await benchSponsorUserOperation({
          baseUrl: new URL(service.bundlerUrl).origin,
          authToken: store.accounts[0].authToken,
          rpcUrl: service.rpcUrl,
          chainId: chain.id,
          operations: OPERATIONS,
          concurrency,
          entryPointVersion: version,
        })
        rows.push([
          'paymaster',
          `${version === '0.7' ? 'v0.7: ' : ''}pm_sponsorUserOperation, ${concurrency} client${concurrency === 1 ? '' : 's'}`,
          fmt(r.p50),
          fmt(r.p95),
          r.opsPerSecond.toFixed(0),
          'SPONSORED, calculateGasLimits true, no webhook',
        ])
      }
    }
    const memory = service.memory()
    report(
      mode,
      'service memory',
      null,
      null,
      `RSS ${memory.rssMiB.toFixed(0)} MiB, peak ${memory.peakMiB?.toFixed(0) ?? '?'} MiB`,
    )
  } finally {
    await service.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const loadAtStart = os.loadavg()
// BENCH_MODES=unsafe (or safe) runs one mode only; BENCH_HISTORY=<n> the history bench alone.
// BENCH_MODES=revert the revert bench alone (runRevertBench.ts: BENCH_REVERT_HISTORY operations, 1,000 by default).
const modes = (process.env.BENCH_MODES ?? (HISTORY > 0 ? '' : 'safe,unsafe,revert')).split(',')
if (modes.includes('safe')) await benchMode(false)
if (modes.includes('unsafe')) await benchMode(true)
// The sequential SDK loop, on a service of its own (BENCH_SDK_LOOP=0 leaves it out: bench:compare runs it apart).
if (modes.includes('unsafe') && process.env.BENCH_SDK_LOOP !== '0') rows.push(...(await benchSdkLoop()))
if (modes.includes('revert')) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-bench-revert-'))
  try {
    rows.push(
      ...(await runRevertBench({
        dataDir,
        operations: Number(process.env.BENCH_REVERT_HISTORY ?? 1000),
        clients: CLIENTS,
        rounds: Number(process.env.BENCH_REVERT_ROUNDS ?? 20),
      })),
    )
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
if (HISTORY > 0) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-bench-history-'))
  try {
    rows.push(...(await runHistoryBench({ dataDir, operations: HISTORY, clients: CLIENTS })))
  } finally {
    // BENCH_KEEP_DATA=1 leaves the data folder for a look (its path on stderr).
    if (process.env.BENCH_KEEP_DATA) process.stderr.write(`history data folder kept: ${dataDir}\n`)
    else await rm(dataDir, { recursive: true, force: true })
  }
}
const floor = await measureHttpFloor(CLIENTS)
rows.push([
  'machine',
  'raw node:http JSON-RPC round trip',
  '',
  '',
  floor.requestsPerSecond.toFixed(0),
  `${CLIENTS} callers, a server that answers a constant: CPU µs/request: server ${floor.serverCpuUs.toFixed(0)}, caller ${floor.clientCpuUs.toFixed(0)} (every request to the service pays at least this)`,
])

console.log(
  `\nOpstation bundler benchmark: ${OPERATIONS} UserOperations a loop, ${CLIENTS} concurrent clients${GROW > 0 ? `, after ${GROW} operations grew the chain` : ''}${HISTORY > 0 ? `; history: ${HISTORY} operations, then a restart` : ''}; "cold:" rows are the first loop after start, the others follow ${WARMUP} unmeasured operations; automine, ${os.cpus().length} CPUs, Node ${process.version}, load average at start ${loadAtStart.map((l) => l.toFixed(1)).join(' ')}\n`,
)
console.log(formatTable(BENCH_TABLE_HEADER, rows))
