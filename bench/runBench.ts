/**
 * `npm run bench` (`BENCH_MODES=unsafe npm run bench` for one mode): drives a fresh Opstation service (its own process, fresh data folder, embedded anvil) over
 * HTTP with 16 concurrent clients and prints p50/p95 latency and ops/s for estimate, send and send-to-receipt
 * (200 UserOperations, safe then unsafe mode), the sustained inclusion rate of a burst of 200, the raw
 * handleOps throughput of the same chain (the physical limit), estimated versus actual gas, the service RSS, and
 * the CPU time per operation of the service, of its anvil and of the bench's own clients (Linux /proc), since all
 * three share the machine's cores. BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=<dir>' profiles the service.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import nodeHttp from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
} from 'viem'
import { entryPoint06Abi, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { UserOperationV06 } from '../src/main/service/chain/types'
import { benchSponsorUserOperation } from './benchSponsorUserOperation'
import { type ServiceProcess, startServiceProcess } from './startServiceProcess'
import { toLibsecp256k1Account } from './toLibsecp256k1Account'

const CLIENTS = 16
const OPERATIONS = 200
const RAW_BUNDLE_SIZE = 10

type Op = UserOperationV06
type Client = Awaited<ReturnType<typeof createClient>>

const hex = (v: bigint) => `0x${v.toString(16)}` as Hex
const toRpc = (op: Op) =>
  Object.fromEntries(Object.entries(op).map(([k, v]) => [k, typeof v === 'bigint' ? hex(v) : v]))
const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as Address
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** JSON-RPC over node:http keep-alive: the bench's own client must not eat the CPU it measures (fetch costs ~1 ms a call). */
const agent = new nodeHttp.Agent({ keepAlive: true, maxSockets: 64 })
function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const target = new URL(url)
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            result?: unknown
            error?: { code: number; message: string }
          }
          if (json.error) reject(new Error(`${method}: ${json.error.code} ${json.error.message}`))
          else resolve(json.result)
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function createClient(service: ServiceProcess, publicClient: PublicClient) {
  const key = generatePrivateKey()
  const owner = process.env.BENCH_SIGNER === 'viem' ? privateKeyToAccount(key) : toLibsecp256k1Account(key)
  const account = await toSimpleSmartAccount({
    client: publicClient,
    owner,
    entryPoint: { address: entryPoint06Address, version: '0.6' },
  })
  await rpc(service.rpcUrl, 'anvil_setBalance', [account.address, hex(10n ** 20n)])
  return { account, nonce: 0n }
}

function stubSignature(client: Client): Promise<Hex> {
  return client.account.getStubSignature()
}

/** Estimate → sign → send → receipt for one operation, timing each step against the service. */
async function runOperation(service: ServiceProcess, client: Client, timings: Timings, initCode: Hex = '0x') {
  // A fresh recipient per operation (an address only: deriving one from a new key costs the bench ~0.7 ms of the
  // CPU it shares with the service).
  const callData = await client.account.encodeCalls([{ to: randomAddress(), value: 1n }])
  const partial = {
    sender: client.account.address,
    nonce: hex(client.nonce),
    initCode,
    callData,
    paymasterAndData: '0x',
    signature: await stubSignature(client),
  }
  let t = performance.now()
  const estimate = await rpc(service.bundlerUrl, 'eth_estimateUserOperationGas', [
    partial,
    entryPoint06Address,
  ])
  timings.estimate.push(performance.now() - t)
  const op: Op = {
    sender: client.account.address,
    nonce: client.nonce,
    initCode,
    callData,
    callGasLimit: BigInt(estimate.callGasLimit),
    verificationGasLimit: BigInt(estimate.verificationGasLimit),
    preVerificationGas: BigInt(estimate.preVerificationGas),
    maxFeePerGas: BigInt(estimate.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(estimate.maxPriorityFeePerGas),
    paymasterAndData: '0x',
    signature: '0x',
  }
  op.signature = await client.account.signUserOperation(op)
  t = performance.now()
  const hash = await rpc(service.bundlerUrl, 'eth_sendUserOperation', [toRpc(op), entryPoint06Address])
  timings.send.push(performance.now() - t)
  client.nonce++
  const receipt = await waitForReceipt(service, hash)
  timings.sendToReceipt.push(performance.now() - t)
  timings.gas.push({
    limits: op.callGasLimit + op.verificationGasLimit + op.preVerificationGas,
    used: BigInt(receipt.actualGasUsed),
  })
}

async function waitForReceipt(service: ServiceProcess, hash: Hex, intervalMs = 20): Promise<any> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const receipt = await rpc(service.bundlerUrl, 'eth_getUserOperationReceipt', [hash])
    if (receipt) {
      if (receipt.success !== true) throw new Error(`operation ${hash} reverted: ${receipt.reason}`)
      return receipt
    }
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash}`)
    await sleep(intervalMs)
  }
}

type Timings = {
  estimate: number[]
  send: number[]
  sendToReceipt: number[]
  gas: { limits: bigint; used: bigint }[]
}

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
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, () => createClient(service, publicClient)),
    )

    // Warm-up (not measured): every client deploys its account through initCode.
    const warm: Timings = { estimate: [], send: [], sendToReceipt: [], gas: [] }
    await Promise.all(
      clients.map(async (client) =>
        runOperation(
          service,
          client,
          warm,
          await client.account
            .getFactoryArgs()
            .then(({ factory, factoryData }) => `${factory}${(factoryData as string).slice(2)}` as Hex),
        ),
      ),
    )

    // 0. One client alone (reference: the service's own latency without queueing).
    const alone: Timings = { estimate: [], send: [], sendToReceipt: [], gas: [] }
    for (let n = 0; n < 20; n++) await runOperation(service, clients[0] as Client, alone)
    report(mode, '1 client: estimate', alone.estimate, null)
    report(mode, '1 client: send', alone.send, null)
    report(mode, '1 client: send-to-receipt', alone.sendToReceipt, null)

    // 1. 200 operations, 16 clients each looping estimate → send → receipt.
    const timings: Timings = { estimate: [], send: [], sendToReceipt: [], gas: [] }
    const shares = clients.map(
      (_, i) => Math.floor(OPERATIONS / CLIENTS) + (i < OPERATIONS % CLIENTS ? 1 : 0),
    )
    let cpu = startCpu(service)
    let started = performance.now()
    await Promise.all(
      clients.map(async (client, i) => {
        for (let n = 0; n < (shares[i] ?? 0); n++) await runOperation(service, client, timings)
      }),
    )
    const loopSeconds = (performance.now() - started) / 1000
    report(mode, 'estimate (eth_estimateUserOperationGas)', timings.estimate, null)
    report(mode, 'send (eth_sendUserOperation)', timings.send, null)
    report(
      mode,
      'send-to-receipt',
      timings.sendToReceipt,
      OPERATIONS / loopSeconds,
      `${CLIENTS} clients, estimate→send→receipt loop; ${cpu.perOperation(OPERATIONS)}`,
    )
    const ratios = timings.gas.map((g) => Number(g.used) / Number(g.limits))
    report(
      mode,
      'gas used / estimated limits',
      null,
      null,
      `min ${(Math.min(...ratios) * 100).toFixed(1)} %, median ${(percentile(ratios, 50) * 100).toFixed(1)} %, max ${(Math.max(...ratios) * 100).toFixed(1)} % (never over 100 %: ${ratios.every((r) => r <= 1)})`,
    )

    // 2. Burst: every client sends its share pre-signed, back to back, without waiting; included ops/s.
    const template = clients[0] as Client
    const templateCallData = await template.account.encodeCalls([{ to: template.account.address, value: 0n }])
    const estimate = await rpc(service.bundlerUrl, 'eth_estimateUserOperationGas', [
      {
        sender: template.account.address,
        nonce: hex(template.nonce),
        initCode: '0x',
        callData: templateCallData,
        paymasterAndData: '0x',
        signature: await stubSignature(template),
      },
      entryPoint06Address,
    ])
    const burst = await Promise.all(
      clients.map(async (client, i) => {
        const ops: Op[] = []
        for (let n = 0; n < (shares[i] ?? 0); n++) {
          const op: Op = {
            sender: client.account.address,
            nonce: client.nonce + BigInt(n),
            initCode: '0x',
            callData: await client.account.encodeCalls([{ to: client.account.address, value: 0n }]),
            callGasLimit: BigInt(estimate.callGasLimit),
            verificationGasLimit: BigInt(estimate.verificationGasLimit),
            preVerificationGas: BigInt(estimate.preVerificationGas) + 200n,
            maxFeePerGas: BigInt(estimate.maxFeePerGas) * 2n,
            maxPriorityFeePerGas: BigInt(estimate.maxPriorityFeePerGas),
            paymasterAndData: '0x',
            signature: '0x',
          }
          op.signature = await client.account.signUserOperation(op)
          ops.push(op)
        }
        client.nonce += BigInt(ops.length)
        return ops
      }),
    )
    const burstSend: number[] = []
    cpu = startCpu(service)
    started = performance.now()
    const hashes = (
      await Promise.all(
        burst.map(async (ops) => {
          const sent: Hex[] = []
          for (const op of ops) {
            const t = performance.now()
            sent.push(
              await rpc(service.bundlerUrl, 'eth_sendUserOperation', [toRpc(op), entryPoint06Address]),
            )
            burstSend.push(performance.now() - t)
          }
          return sent
        }),
      )
    ).flat()
    // A sender's operations are included in nonce order: wait for each client's last one, then check them all.
    const perClient = burst.map((ops) => ops.length)
    let offset = 0
    const lastHashes = perClient.map((n) => {
      offset += n
      return hashes[offset - 1] as Hex
    })
    await Promise.all(lastHashes.map((hash) => waitForReceipt(service, hash, 20)))
    const burstSeconds = (performance.now() - started) / 1000
    await Promise.all(hashes.map((hash) => waitForReceipt(service, hash, 20)))
    report(
      mode,
      'burst: send, then all included',
      burstSend,
      OPERATIONS / burstSeconds,
      `${CLIENTS} clients sending pre-signed ops back to back; ${cpu.perOperation(OPERATIONS)}`,
    )

    // 3. Raw handleOps on the same chain, bypassing the service (nonce key 1, own funded EOA).
    if (unsafe) {
      const sender = privateKeyToAccount(generatePrivateKey())
      await rpc(service.rpcUrl, 'anvil_setBalance', [sender.address, hex(10n ** 22n)])
      const key = 1n << 64n
      // A new nonce key costs a fresh storage slot in the EntryPoint: estimate with it.
      const rawEstimate = await rpc(service.bundlerUrl, 'eth_estimateUserOperationGas', [
        {
          sender: template.account.address,
          nonce: hex(key),
          initCode: '0x',
          callData: templateCallData,
          paymasterAndData: '0x',
          signature: await stubSignature(template),
        },
        entryPoint06Address,
      ])
      const raw: Op[] = []
      for (let n = 0; n < OPERATIONS; n++) {
        const client = clients[n % CLIENTS] as Client
        const op: Op = {
          sender: client.account.address,
          nonce: key + BigInt(Math.floor(n / CLIENTS)),
          initCode: '0x',
          callData: await client.account.encodeCalls([{ to: client.account.address, value: 0n }]),
          callGasLimit: BigInt(rawEstimate.callGasLimit),
          verificationGasLimit: BigInt(rawEstimate.verificationGasLimit),
          preVerificationGas: BigInt(rawEstimate.preVerificationGas) + 200n,
          maxFeePerGas: BigInt(estimate.maxFeePerGas) * 2n,
          maxPriorityFeePerGas: BigInt(estimate.maxPriorityFeePerGas),
          paymasterAndData: '0x',
          signature: '0x',
        }
        op.signature = await client.account.signUserOperation(op)
        raw.push(op)
      }
      // Bundles never hold two nonces of one sender out of order: ops are laid out round-robin by sender.
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
      for (const concurrency of [1, CLIENTS]) {
        const r = await benchSponsorUserOperation({
          baseUrl: new URL(service.bundlerUrl).origin,
          authToken: store.accounts[0].authToken,
          rpcUrl: service.rpcUrl,
          chainId: chain.id,
          operations: OPERATIONS,
          concurrency,
        })
        rows.push([
          'paymaster',
          `pm_sponsorUserOperation, ${concurrency} client${concurrency === 1 ? '' : 's'}`,
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
// BENCH_MODES=unsafe (or safe) runs one mode only.
const modes = (process.env.BENCH_MODES ?? 'safe,unsafe').split(',')
if (modes.includes('safe')) await benchMode(false)
if (modes.includes('unsafe')) await benchMode(true)

const header = ['mode', 'measure', 'p50', 'p95', 'ops/s', 'note']
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
const line = (cells: string[]) =>
  cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd()
console.log(
  `\nOpstation bundler benchmark: ${OPERATIONS} UserOperations, ${CLIENTS} concurrent clients, automine, ${os.cpus().length} CPUs, Node ${process.version}, load average at start ${loadAtStart.map((l) => l.toFixed(1)).join(' ')}\n`,
)
console.log(line(header))
console.log(line(widths.map((w) => '-'.repeat(w))))
for (const row of rows) console.log(line(row))
