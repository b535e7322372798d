/**
 * The revert bench (`npm run bench`, `BENCH_MODES=revert` alone): a service with `operations` UserOperations in its
 * history (16 clients, 16 pre-signed in flight each, as the history bench seeds), then rounds of a per-test revert:
 * `evm_snapshot` at the chain URL, one client's 16 operations sent and mined, `evm_revert` to the snapshot. The same
 * signed operations go again every round (the revert takes their nonces back), and after each revert their receipts
 * must answer null and the mempool be empty: the stack is consistent when the revert has answered. p50 and p95 of the
 * revert (target: under 100 ms p50 with 1,000 operations in the history) and of the snapshot.
 */
import type { Hex } from 'viem'
import { createBenchClient } from './createBenchClient'
import { createRpc, waitForReceipt } from './createRpc'
import { bundleCli } from './runHistoryBench'
import { startServiceProcess } from './startServiceProcess'

const CHUNK = 16
const ENTRY_POINT_V06 = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'

export type RunRevertBenchParameters = {
  dataDir: string
  operations: number
  clients: number
  rounds: number
  log?: (line: string) => void
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number
}

export async function runRevertBench(p: RunRevertBenchParameters): Promise<string[][]> {
  const log = p.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const rpc = createRpc()
  bundleCli()
  const service = await startServiceProcess({ dataDir: p.dataDir, unsafe: true })
  try {
    const chainId = Number(BigInt(await rpc(service.rpcUrl, 'eth_chainId', [])))
    const options = { rpcUrl: service.rpcUrl, bundlerUrl: service.bundlerUrl, chainId }
    const clients = await Promise.all(Array.from({ length: p.clients }, () => createBenchClient(options)))
    // Eight deployments at a time: the factory is unstaked (ten pending operations at most, UREP-020).
    for (let i = 0; i < clients.length; i += 8)
      await Promise.all(clients.slice(i, i + 8).map((client) => client.runOperations(1, { deploy: true })))
    let done = clients.length
    await Promise.all(
      clients.map(async (client, i) => {
        const template = await client.estimateTransfer()
        let left =
          Math.floor((p.operations - clients.length) / clients.length) +
          (i === 0 ? p.operations % clients.length : 0)
        while (left > 0) {
          const count = Math.min(CHUNK, left)
          const ops = await client.signSelfCalls(count, template, undefined, { toFreshAddresses: true })
          const { hashes } = await client.sendOperations(ops)
          await waitForReceipt(rpc, service.bundlerUrl, hashes.at(-1) as Hex, 5)
          left -= count
          done += count
        }
      }),
    )
    log(`revert bench: ${done} operations in the history`)

    const [client] = clients
    if (!client) throw new Error('no client')
    const round = await client.signSelfCalls(CHUNK, await client.estimateTransfer(), undefined, {
      toFreshAddresses: true,
    })
    const snapshotMs: number[] = []
    const revertMs: number[] = []
    for (let n = 0; n < p.rounds; n++) {
      let t = performance.now()
      const id = (await rpc(service.rpcUrl, 'evm_snapshot', [])) as Hex
      snapshotMs.push(performance.now() - t)
      const { hashes } = await client.sendOperations(round)
      await waitForReceipt(rpc, service.bundlerUrl, hashes.at(-1) as Hex, 5)
      t = performance.now()
      const reverted = await rpc(service.rpcUrl, 'evm_revert', [id])
      revertMs.push(performance.now() - t)
      if (reverted !== true) throw new Error(`evm_revert ${id} answered ${reverted}`)
      const receipts = await Promise.all(
        hashes.map((hash) => rpc(service.bundlerUrl, 'eth_getUserOperationReceipt', [hash])),
      )
      if (receipts.some((receipt) => receipt !== null))
        throw new Error('a reverted operation still has a receipt')
      const mempool = (await rpc(service.bundlerUrl, 'debug_bundler_dumpMempool', [
        ENTRY_POINT_V06,
      ])) as unknown[]
      if (mempool.length > 0) throw new Error('the mempool is not empty after a revert')
    }
    const note = `${done} operations in the history; each round: snapshot, ${CHUNK} operations mined, revert (${p.rounds} rounds); receipts null and mempool empty checked after each`
    log(`revert bench: evm_revert p50 ${percentile(revertMs, 50).toFixed(0)} ms`)
    return [
      [
        'revert',
        'evm_revert (whole stack)',
        `${percentile(revertMs, 50).toFixed(1)} ms`,
        `${percentile(revertMs, 95).toFixed(1)} ms`,
        '',
        `${note}; target under 100 ms p50`,
      ],
      [
        'revert',
        'evm_snapshot (whole stack)',
        `${percentile(snapshotMs, 50).toFixed(1)} ms`,
        `${percentile(snapshotMs, 95).toFixed(1)} ms`,
        '',
        note,
      ],
    ]
  } finally {
    await service.stop()
  }
}
