import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { StartupError } from '../../errors'
import { writeFileAtomic } from '../../util/files/writeFileAtomic'

/** What the user asked for: fork the chain at `url`, at `block` (default: its head at the first start). */
export type ForkConfig = { url: string; block?: number }

/**
 * The fork a data folder holds (`chain/fork.json`), written at its first start: every later start forks the same
 * block of the same chain, and loads the saved state (the fork's own blocks and changes) on top.
 */
export type ForkRecord = {
  url: string
  block: number
  /** Hash of `block` on the remote: another URL is accepted for the same chain only if it has this block. */
  blockHash: string
  /** The chain id the fork runs with (the remote's, or the `--chain-id` of the first start). */
  chainId: number
}

/** What the remote said when it was probed at start. */
export type ForkRemote = { chainId: number; head: number }

/** The fork to run: the block and chain id to give anvil, and whether the record must be (re)written. */
export type ForkPlan = {
  url: string
  block: number
  chainId: number
  /** `--chain-id` for anvil: set only when it differs from the remote's (else anvil follows the fork). */
  chainIdOverride?: number
}

/** `https://host/…` for messages and the status: a provider's key often sits in the path or the query. */
export function redactForkUrl(url: string): string {
  try {
    const parsed = new URL(url)
    const hidden =
      parsed.pathname.replace(/\/+$/, '') !== '' || parsed.search !== '' || parsed.username !== ''
    return `${parsed.protocol}//${parsed.host}${hidden ? '/…' : ''}`
  } catch {
    return 'the fork URL'
  }
}

const CHANGE_HINT = 'start without --fork-url/--fork-block to continue it, or use another --data-dir'

/**
 * Checks a start's fork flags against the data folder (pure; throws a one-line StartupError):
 * - a data folder with a chain that is not a fork (its state without a record) is refused;
 * - with a record, the recorded block is forked again: another `--fork-block` is refused, as is another `--chain-id`
 *   (the saved state's transactions were signed for the recorded one); another URL is checked by the caller (it must
 *   serve the same chain: `checkForkBlockHash`);
 * - without a record (first start), the block is `--fork-block` or the remote's head, and must exist there.
 */
export function planFork(p: {
  fork: ForkConfig
  record: ForkRecord | undefined
  /** `--chain-id`, when given. */
  chainId: number | undefined
  /** The data folder already holds a chain state. */
  hasState: boolean
  remote: ForkRemote
}): ForkPlan {
  const { fork, record, remote } = p
  const where = redactForkUrl(fork.url)
  if (!record) {
    if (p.hasState)
      throw new StartupError(
        'the data folder holds a local chain, not a fork: use another --data-dir for the fork (or start without --fork-url)',
      )
    const block = fork.block ?? remote.head
    if (block > remote.head)
      throw new StartupError(`--fork-block ${block} is beyond the head of ${where} (block ${remote.head})`)
    const chainId = p.chainId ?? remote.chainId
    return { url: fork.url, block, chainId, ...override(chainId, remote.chainId) }
  }
  const recorded = `the data folder holds a fork of ${redactForkUrl(record.url)} at block ${record.block}`
  if (fork.block !== undefined && fork.block !== record.block)
    throw new StartupError(`${recorded}; --fork-block ${fork.block} differs: ${CHANGE_HINT}`)
  if (p.chainId !== undefined && p.chainId !== record.chainId)
    throw new StartupError(
      `${recorded} with chain id ${record.chainId}; --chain-id ${p.chainId} differs: ${CHANGE_HINT}`,
    )
  if (record.block > remote.head)
    throw new StartupError(`${recorded}, but ${where} is only at block ${remote.head}: is it another chain?`)
  return {
    url: fork.url,
    block: record.block,
    chainId: record.chainId,
    ...override(record.chainId, remote.chainId),
  }
}

function override(chainId: number, remoteChainId: number): { chainIdOverride?: number } {
  return chainId === remoteChainId ? {} : { chainIdOverride: chainId }
}

/**
 * The remote must still hold the recorded block: the same chain (another URL for it is fine: a provider's key
 * rotated), not another one, nor the same local dev node reset since (the saved state would sit on other contents).
 */
export function checkForkBlockHash(record: ForkRecord, url: string, blockHash: string | undefined): void {
  if (blockHash?.toLowerCase() === record.blockHash.toLowerCase()) return
  throw new StartupError(
    `the data folder holds a fork of ${redactForkUrl(record.url)} at block ${record.block}; ${redactForkUrl(url)} ` +
      `has ${blockHash ? 'another block there' : 'no such block'} (another chain, or a node reset since): ` +
      'use another --data-dir for a new fork',
  )
}

export function forkRecordPath(chainDir: string): string {
  return join(chainDir, 'fork.json')
}

export async function readForkRecord(chainDir: string): Promise<ForkRecord | undefined> {
  const path = forkRecordPath(chainDir)
  if (!existsSync(path)) return undefined
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as ForkRecord
    if (
      typeof record.url !== 'string' ||
      !Number.isInteger(record.block) ||
      !Number.isInteger(record.chainId)
    )
      throw new Error('missing url, block or chainId')
    return record
  } catch (err) {
    throw new StartupError(`${path} is unreadable (${(err as Error).message}): fix or remove it`)
  }
}

export async function writeForkRecord(chainDir: string, record: ForkRecord): Promise<void> {
  await writeFileAtomic(forkRecordPath(chainDir), `${JSON.stringify(record, null, 2)}\n`)
}

/** The remote answered with a JSON-RPC error. */
class RemoteRefusedError extends StartupError {
  override name = 'RemoteRefusedError'
}

/** One JSON-RPC call to the fork's remote, in `timeoutMs`; throws a one-line StartupError when it does not answer. */
async function callRemote<T>(url: string, method: string, params: unknown[], timeoutMs: number): Promise<T> {
  let body: { result?: T; error?: { message?: string } }
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    body = (await response.json()) as typeof body
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no answer in ${timeoutMs / 1000} s`
        : (cause ?? (err as Error).message)
    throw new StartupError(`the fork's remote node at ${redactForkUrl(url)} is unreachable (${reason})`)
  }
  if (body.error || body.result === undefined)
    throw new RemoteRefusedError(
      `the fork's remote node at ${redactForkUrl(url)} refused ${method}: ${body.error?.message ?? 'no result'}`,
    )
  return body.result
}

/** The remote's chain id and head (it must answer before anvil is started on it). */
export async function probeForkRemote(url: string, timeoutMs = 10_000): Promise<ForkRemote> {
  const [chainId, head] = await Promise.all([
    callRemote<string>(url, 'eth_chainId', [], timeoutMs),
    callRemote<string>(url, 'eth_blockNumber', [], timeoutMs),
  ])
  return { chainId: Number(BigInt(chainId)), head: Number(BigInt(head)) }
}

/** Hash of `block` on the remote (undefined when it has no such block). */
export async function readForkBlockHash(
  url: string,
  block: number,
  timeoutMs = 10_000,
): Promise<string | undefined> {
  const result = await callRemote<{ hash?: string } | null>(
    url,
    'eth_getBlockByNumber',
    [`0x${block.toString(16)}`, false],
    timeoutMs,
  ).catch((err) => {
    if (err instanceof RemoteRefusedError) return null
    throw err
  })
  return result?.hash
}

/**
 * The fork this start runs, from the flags and the data folder's record (a folder holding a fork continues it
 * without the flags), after probing the remote (unreachable: a one-line StartupError). `record` writes the record
 * once anvil runs (first start, or another URL for the same chain). Undefined: not a fork.
 */
export async function prepareFork(p: {
  chainDir: string
  fork: ForkConfig | undefined
  chainId: number | undefined
  hasState: boolean
}): Promise<{ plan: ForkPlan; continued: boolean; record: () => Promise<void> } | undefined> {
  const record = await readForkRecord(p.chainDir)
  if (!p.fork && !record) return undefined
  const fork = p.fork ?? { url: (record as ForkRecord).url }
  const remote = await probeForkRemote(fork.url)
  const plan = planFork({ fork, record, chainId: p.chainId, hasState: p.hasState, remote })
  const blockHash = await readForkBlockHash(fork.url, plan.block)
  if (record) checkForkBlockHash(record, fork.url, blockHash)
  if (!blockHash) throw new StartupError(`${redactForkUrl(fork.url)} has no block ${plan.block} to fork`)
  const changed = !record || record.url !== fork.url
  return {
    plan,
    continued: !p.fork,
    record: async () => {
      if (changed)
        await writeForkRecord(p.chainDir, {
          url: fork.url,
          block: plan.block,
          blockHash,
          chainId: plan.chainId,
        })
    },
  }
}
