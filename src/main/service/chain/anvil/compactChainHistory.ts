import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { NodeRequest } from '../node/nodeRpcError'
import { dumpState } from './dumpState'
import { historyBlocks } from './spawnAnvil'
import type { StateDumpTrim } from './trimStateDump'

const gzipAsync = promisify(gzip)

/**
 * Compacting failed after anvil's chain was reset: anvil holds an empty chain until it is restarted from the saved
 * state (which was written before the reset).
 */
export class CompactionLostChainError extends Error {
  override name = 'CompactionLostChainError'
}

export type CompactChainHistoryResult = StateDumpTrim & { ms: number }

type Block = { number: string; hash: string; timestamp: string }

/**
 * Whether anvil holds enough beyond what the last save kept (`trim`) to compact it: old blocks (a header each, about
 * 1.6 KB of every dump and more of anvil's memory) or old transactions (their receipts and call traces, about 13 KB
 * per UserOperation: anvil's own dumps, every minute and on exit, hold them too). At a quiet moment (no block or
 * write for a tick of the state saver): 4 times the kept history in blocks (256 by default; 1,000 at most) or 16 MB;
 * whatever the load: ten times the blocks, or 64 MB.
 */
export function isCompactionDue(
  trim: Pick<StateDumpTrim, 'blocksDropped' | 'bytesDropped'> | undefined,
  quiet: boolean,
  keepBlocks = historyBlocks(),
): boolean {
  if (!trim) return false
  const blocks = Math.min(1_000, 4 * keepBlocks) * (quiet ? 1 : 10)
  return trim.blocksDropped >= blocks || trim.bytesDropped >= (quiet ? 16e6 : 64e6)
}

/**
 * Drops from the running anvil the old blocks the saved state no longer holds. anvil keeps every block it mined
 * (`--transaction-block-keeper` empties the old ones, but their headers stay): its memory and every dump grow with
 * the chain (10,000 empty blocks: 17 MB of JSON in each dump, anvil at 190 MiB). So, with every other call to the
 * node held by the caller: the state is saved (trimmed, dumpState.ts), anvil's chain is reset and
 * loaded from that file (as every start loads it), anvil's clock is put back where it was (the reset moved it back
 * to anvil's own start: blocks would go back in time), and the head's number and hash are checked. Returns null,
 * touching nothing, while anvil's transaction pool holds a transaction (a reset would drop it). Throws
 * CompactionLostChainError when anvil did not take the state back after the reset.
 */
export async function compactChainHistory({
  request,
  statePath,
  keepBlocks = historyBlocks(),
  firstBlock,
}: {
  /** The node's own connection, not held by the caller's gate. */
  request: NodeRequest
  statePath: string
  keepBlocks?: number
  /** Blocks before it are not kept either (StateDumpTrimParameters). */
  firstBlock?: number
}): Promise<CompactChainHistoryResult | null> {
  const started = Date.now()
  if (!(await isPoolEmpty(request))) return null
  const head = (await request('eth_getBlockByNumber', ['latest', false])) as Block
  // The timestamp anvil's next block would get: its clock, with any evm_increaseTime in it.
  const pending = (await request('eth_getBlockByNumber', ['pending', false])) as Block | null
  const trim = await dumpState(request, statePath, { keepBlocks, firstBlock })
  const state = await gzipAsync(await readFile(statePath))
  try {
    await request('anvil_reset', [])
    await request('anvil_loadState', [`0x${state.toString('hex')}`])
    if (pending) await request('evm_setTime', [Number(BigInt(pending.timestamp))])
    const now = (await request('eth_getBlockByNumber', ['latest', false])) as Block | null
    if (now?.number !== head.number || now.hash !== head.hash)
      throw new Error(
        `the head after loading is ${now?.number}/${now?.hash}, not ${head.number}/${head.hash} as before`,
      )
  } catch (err) {
    throw new CompactionLostChainError(
      `anvil did not take its state back after its history was compacted: ${(err as Error).message}`,
      { cause: err },
    )
  }
  return { ...trim, ms: Date.now() - started }
}

/** No transaction waits in anvil's pool (interval mining, or a nonce gap). */
export async function isPoolEmpty(request: NodeRequest): Promise<boolean> {
  const status = (await request('txpool_status', [])) as { pending?: string; queued?: string } | null
  return !status || (BigInt(status.pending ?? '0x0') === 0n && BigInt(status.queued ?? '0x0') === 0n)
}
