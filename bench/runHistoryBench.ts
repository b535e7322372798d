/**
 * `BENCH_HISTORY=<n> npm run bench`: a service used for a long time. n UserOperations are bundled through the service
 * as fast as it takes them (16 clients, each sending its next 16 pre-signed operations as soon as the last 16 are
 * mined; each pays 1 wei to a fresh address, so the chain gains an account per operation as it does in use), with
 * the data folder, the chain's state file, the store and both processes' memory read at every fifth of the way.
 * Then the service is stopped and started again on the same folder: the time to its ready line, what the folder
 * holds, and whether the first operations' receipt (eth_getUserOperationReceipt), the operation itself
 * (eth_getUserOperationByHash) and its activity record (the console's feed, paged back from the newest) are served
 * as they were before, and a new operation still goes through.
 */
import { execFileSync } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Hex } from 'viem'
import { createBenchClient } from './createBenchClient'
import { createRpc, waitForReceipt } from './createRpc'
import { type ServiceProcess, startServiceProcess } from './startServiceProcess'

export type RunHistoryBenchParameters = {
  dataDir: string
  operations: number
  clients: number
  /** Progress lines go here (stderr). */
  log?: (line: string) => void
}

/** Operations a client has in flight at once: the benched service takes 16 pending per unstaked sender. */
const CHUNK = 16
const STATE_FILE = path.join('chain', 'anvil-state.json')
const STORE_FILE = 'opstation.json'

const BIN = path.resolve(import.meta.dirname, '../bin/opstation.js')
/**
 * The CLI runs from a bundle it rebuilds when src/ changed (about a second): rebuilt now if need be, so that a start
 * measures the service, not the bundling of an edit made meanwhile.
 */
export const bundleCli = () => execFileSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' })

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const mib = (value: number) => `${value.toFixed(0)} MiB`

/** Every file under `dir` (apparent sizes), biggest first. */
async function listFiles(dir: string): Promise<{ file: string; bytes: number }[]> {
  const out: { file: string; bytes: number }[] = []
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name)
      if (entry.isDirectory()) await walk(full)
      else if (entry.isFile()) {
        const s = await stat(full).catch(() => undefined)
        if (s) out.push({ file: path.relative(dir, full), bytes: s.size })
      }
    }
  }
  await walk(dir)
  return out.sort((a, b) => b.bytes - a.bytes)
}

/** The folder's total, the state file, the store, and the biggest files. */
async function describeFolder(dir: string) {
  const files = await listFiles(dir)
  const size = (name: string) => files.find((f) => f.file === name)?.bytes ?? 0
  const total = files.reduce((sum, f) => sum + f.bytes, 0)
  const biggest = files
    .slice(0, 4)
    .map((f) => `${f.file} ${mb(f.bytes)}`)
    .join(', ')
  return { total, state: size(STATE_FILE), store: size(STORE_FILE), biggest }
}

async function getJson(url: string, authToken: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { authToken } })
  return { status: res.status, body: await res.json() }
}

/**
 * Pages the console's activity feed back from the newest operation (500 a page) until `userOpHash` shows; the
 * pages it took and the time, or null when the feed ends without it.
 */
async function findInFeed(service: ServiceProcess, userOpHash: Hex) {
  const started = performance.now()
  let before: number | null | undefined
  for (let pages = 1; ; pages++) {
    const query = `limit=500${before === undefined ? '' : `&before=${before}`}`
    const { status, body } = await getJson(
      `${service.dashboardUrl}/console/api/user-operations?${query}`,
      service.authToken,
    )
    if (status !== 200) throw new Error(`activity feed answered ${status}: ${JSON.stringify(body)}`)
    if (body.data.items.some((item: { userOpHash: string }) => item.userOpHash === userOpHash))
      return { pages, ms: performance.now() - started }
    before = body.data.nextBefore
    if (before === null) return null
  }
}

export async function runHistoryBench(p: RunHistoryBenchParameters): Promise<string[][]> {
  const rows: string[][] = []
  const row = (measure: string, value: string, opsPerSecond: string, note: string) =>
    rows.push(['history', measure, value, '', opsPerSecond, note])
  const log = p.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const rpc = createRpc()

  bundleCli()
  let service = await startServiceProcess({ dataDir: p.dataDir, unsafe: true })
  // The reference: a restart with no history (the contracts deployed, nothing else).
  await service.stop()
  bundleCli()
  service = await startServiceProcess({ dataDir: p.dataDir, unsafe: true })
  row('restart with no history: spawn to ready line', `${service.readyMs.toFixed(0)} ms`, '', 'the reference')
  try {
    const chainId = Number(BigInt(await rpc(service.rpcUrl, 'eth_chainId', [])))
    const options = { rpcUrl: service.rpcUrl, bundlerUrl: service.bundlerUrl, chainId }
    const clients = await Promise.all(Array.from({ length: p.clients }, () => createBenchClient(options)))
    // The early operations whose receipts must outlive the chain's history: the deployments.
    const deployed = await Promise.all(clients.map((client) => client.runOperations(1, { deploy: true })))
    const early = deployed[0]?.hashes[0] as Hex
    const earlyReceipt = await rpc(service.bundlerUrl, 'eth_getUserOperationReceipt', [early])
    const earlyOperation = await rpc(service.bundlerUrl, 'eth_getUserOperationByHash', [early])
    const earlyRecord = await getJson(
      `${service.dashboardUrl}/console/api/user-operations/${early}`,
      service.authToken,
    )

    // Seed the history: each client keeps 16 pre-signed operations in flight, to fresh addresses.
    let done = clients.length
    const target = p.operations
    const marks = [1, 2, 3, 4, 5].map((k) => Math.round((target * k) / 5))
    let nextMark = 0
    let segmentStart = { at: performance.now(), done }
    const started = performance.now()
    const cpuAtStart = service.cpuMs()
    const progress = async () => {
      while (nextMark < marks.length && done >= (marks[nextMark] as number)) {
        nextMark++
        const now = performance.now()
        const rate = (done - segmentStart.done) / ((now - segmentStart.at) / 1000)
        segmentStart = { at: now, done }
        const folder = await describeFolder(p.dataDir)
        const note = `state file ${mb(folder.state)}, store ${mb(folder.store)}; RSS service ${mib(service.memory().rssMiB)}, anvil ${mib(service.nodeMemory().rssMiB)}; biggest: ${folder.biggest}`
        row(`data folder after ${done} operations (running)`, mb(folder.total), rate.toFixed(0), note)
        log(`history: ${done} operations, ${rate.toFixed(0)} ops/s; ${mb(folder.total)}; ${note}`)
      }
    }
    const sharesLeft = clients.map((_, i) => {
      const rest = target - clients.length
      return Math.floor(rest / clients.length) + (i < rest % clients.length ? 1 : 0)
    })
    await Promise.all(
      clients.map(async (client, i) => {
        const template = await client.estimateTransfer()
        let left = sharesLeft[i] as number
        while (left > 0) {
          const count = Math.min(CHUNK, left)
          const ops = await client.signSelfCalls(count, template, undefined, { toFreshAddresses: true })
          const { hashes } = await client.sendOperations(ops)
          await waitForReceipt(rpc, service.bundlerUrl, hashes.at(-1) as Hex, 5)
          left -= count
          done += count
          await progress()
        }
      }),
    )
    const seedSeconds = (performance.now() - started) / 1000
    const cpu = service.cpuMs()
    row(
      `seed ${done} operations`,
      `${seedSeconds.toFixed(0)} s`,
      (done / seedSeconds).toFixed(0),
      `${p.clients} clients, 16 in flight each, 1 wei to a fresh address each (unsafe mode); CPU ms/op: service ${((cpu.service - cpuAtStart.service) / done).toFixed(1)}, anvil ${((cpu.node - cpuAtStart.node) / done).toFixed(1)}`,
    )

    // Stop (the final save) and start again on the same folder.
    let t = performance.now()
    await service.stop()
    const stopMs = performance.now() - t
    const stopped = await describeFolder(p.dataDir)
    row(
      'stop (SIGTERM to exit, with the last save)',
      `${stopMs.toFixed(0)} ms`,
      '',
      `then the data folder holds ${mb(stopped.total)}: state file ${mb(stopped.state)}, store ${mb(stopped.store)}; biggest: ${stopped.biggest}`,
    )
    bundleCli()
    service = await startServiceProcess({ dataDir: p.dataDir, unsafe: true })
    row(
      'restart: spawn to ready line',
      `${service.readyMs.toFixed(0)} ms`,
      '',
      `RSS after start: service ${mib(service.memory().rssMiB)}, anvil ${mib(service.nodeMemory().rssMiB)}`,
    )

    // The first operation's receipt, the operation and its activity record, as served before.
    t = performance.now()
    const receipt = await rpc(service.bundlerUrl, 'eth_getUserOperationReceipt', [early])
    const receiptMs = performance.now() - t
    const sameReceipt = JSON.stringify(receipt) === JSON.stringify(earlyReceipt)
    const operation = await rpc(service.bundlerUrl, 'eth_getUserOperationByHash', [early])
    const sameOperation = JSON.stringify(operation) === JSON.stringify(earlyOperation)
    row(
      "first operation's receipt after the restart",
      `${receiptMs.toFixed(1)} ms`,
      '',
      `eth_getUserOperationReceipt ${receipt ? (sameReceipt ? 'as before' : 'DIFFERS from before') : 'NULL'}, eth_getUserOperationByHash ${operation ? (sameOperation ? 'as before' : 'DIFFERS from before') : 'NULL'} (${early})`,
    )
    const record = await getJson(
      `${service.dashboardUrl}/console/api/user-operations/${early}`,
      service.authToken,
    )
    const sameRecord =
      record.status === 200 && JSON.stringify(record.body.data) === JSON.stringify(earlyRecord.body.data)
    const found = await findInFeed(service, early)
    row(
      "first operation's activity after the restart",
      found ? `${found.ms.toFixed(0)} ms` : '',
      '',
      `detail ${record.status}${record.status === 200 ? (sameRecord ? ', status and gas as before' : ', changed since it was mined') : ''}; ${found ? `reached in the feed after ${found.pages} pages of 500` : 'NOT in the feed'}`,
    )

    // New operations on the restarted service (a new client: the old ones knew the old port).
    const newcomer = await createBenchClient({
      ...options,
      rpcUrl: service.rpcUrl,
      bundlerUrl: service.bundlerUrl,
    })
    await newcomer.runOperations(1, { deploy: true })
    const again = await newcomer.runOperations(1)
    row(
      'a new operation after the restart',
      `${(again.sendToReceipt[0] ?? Number.NaN).toFixed(1)} ms`,
      '',
      'send-to-receipt of a new account, after it was deployed',
    )
  } finally {
    await service.stop()
  }
  return rows
}
