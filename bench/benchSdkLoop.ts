import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createBenchDapp, percentile } from './benchSponsorUserOperation'
import { createRpc } from './createRpc'
import { createSdkLoopClient, SDK_LOOP_STEPS, type SdkLoopTimings } from './createSdkLoopClient'
import { startServiceProcess } from './startServiceProcess'

/** Operations measured, and run before them unmeasured (the account's deployment and the JIT's first work). */
const OPERATIONS = Number(process.env.BENCH_SDK_LOOP_OPS ?? 60)
const WARMUP = Number(process.env.BENCH_SDK_LOOP_WARMUP ?? 20)

const STEP_NAMES: Record<(typeof SDK_LOOP_STEPS)[number], string> = {
  nonce: 'nonce (eth_call getNonce, chain RPC)',
  gasPrice: 'gas price (block + eth_maxPriorityFeePerGas, chain RPC)',
  stub: 'stub (pm_getPaymasterStubData)',
  estimate: 'estimate (eth_estimateUserOperationGas)',
  paymasterData: 'paymaster data (pm_getPaymasterData)',
  send: 'send (eth_sendUserOperation)',
  receipt: 'receipt (eth_getUserOperationReceipt)',
}

/**
 * The sequential SDK loop (createSdkLoopClient): one client, one operation after another, on a service of its own
 * (fresh data folder, unsafe mode, EntryPoint v0.6, sponsored by a new dApp). Rows for runBench's table: the complete
 * operation (p50, p95, ops/s, the service's and anvil's CPU per operation) and each RPC. `tree`: the checkout whose
 * service to start (bench:compare drives an older commit's service with this client).
 */
export async function benchSdkLoop(tree?: string): Promise<string[][]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-bench-sdk-'))
  const spawnedAt = performance.now()
  const service = await startServiceProcess({ dataDir, unsafe: true, tree })
  try {
    const chainId = Number(BigInt(await createRpc()(service.rpcUrl, 'eth_chainId', [])))
    const store = JSON.parse(await readFile(path.join(dataDir, 'opstation.json'), 'utf8'))
    const paymasterUrl = await createBenchDapp({
      baseUrl: new URL(service.bundlerUrl).origin,
      authToken: store.accounts[0].authToken,
      chainId,
    })
    const client = await createSdkLoopClient({
      rpcUrl: service.rpcUrl,
      bundlerUrl: service.bundlerUrl,
      paymasterUrl,
      chainId,
      readServiceCpuMs: () => service.cpuMs().service,
    })
    await client.runOperations(WARMUP)
    // For a profile of the service (BENCH_SERVICE_NODE_ARGS): summarizeCpuProfile.mjs --skip-ms leaves the start out.
    process.stderr.write(
      `sdk loop: measured from ${(performance.now() - spawnedAt).toFixed(0)} ms after spawn\n`,
    )
    const before = service.cpuMs()
    const started = performance.now()
    const timings = await client.runOperations(OPERATIONS)
    const seconds = (performance.now() - started) / 1000
    const after = service.cpuMs()
    return formatRows(timings, {
      opsPerSecond: OPERATIONS / seconds,
      serviceCpuMs: (after.service - before.service) / OPERATIONS,
      anvilCpuMs: (after.node - before.node) / OPERATIONS,
    })
  } finally {
    await service.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

function formatRows(
  timings: SdkLoopTimings,
  totals: { opsPerSecond: number; serviceCpuMs: number; anvilCpuMs: number },
): string[][] {
  const ms = (values: number[], p: number) =>
    `${percentile(
      [...values].sort((a, b) => a - b),
      p,
    ).toFixed(1)} ms`
  return [
    [
      'sdk loop',
      'complete operation',
      ms(timings.operation, 50),
      ms(timings.operation, 95),
      totals.opsPerSecond.toFixed(0),
      `1 client, ${OPERATIONS} sponsored v0.6 operations in sequence (nonce, gas price, stub, estimate, paymaster data, sign, send, receipt); CPU ms/op: service ${totals.serviceCpuMs.toFixed(2)}, anvil ${totals.anvilCpuMs.toFixed(2)}`,
    ],
    ...SDK_LOOP_STEPS.map((step) => [
      'sdk loop',
      STEP_NAMES[step],
      ms(timings[step], 50),
      ms(timings[step], 95),
      '',
      `service CPU ${(timings.serviceCpuMs[step] / OPERATIONS).toFixed(2)} ms/op (/proc ticks summed over the operations)`,
    ]),
  ]
}
