import { readdirSync, readFileSync } from 'node:fs'

/** Pids of the processes whose parent is `pid` (Linux: read from /proc). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid
      } catch {
        return false
      }
    })
    .map(Number)
}

/** The anvils this test process started (its children running anvil). */
export function childAnvils(): number[] {
  return childrenOf(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('anvil')
    } catch {
      return false
    }
  })
}
