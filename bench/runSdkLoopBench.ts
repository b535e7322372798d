/**
 * `node bin/bench.js`'s sequential SDK-loop rows alone (benchSdkLoop.ts): `npx tsx bench/runSdkLoopBench.ts [tree]`.
 * With a tree (another checkout, as bench:compare makes), this tree's client drives that tree's service.
 */
import os from 'node:os'
import { benchSdkLoop } from './benchSdkLoop'
import { BENCH_TABLE_HEADER, formatTable } from './formatTable'

const tree = process.argv[2]
const load = os.loadavg()
const rows = await benchSdkLoop(tree)
console.log(
  `\nOpstation sequential SDK loop${tree ? ` (service of ${tree})` : ''}; ${os.cpus().length} CPUs, Node ${process.version}, load average at start ${load.map((l) => l.toFixed(1)).join(' ')}\n`,
)
console.log(formatTable(BENCH_TABLE_HEADER, rows))
