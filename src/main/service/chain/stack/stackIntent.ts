import { randomBytes } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import type { Address, Hex } from 'viem'
import { temporaryFileName } from '../../util/files/temporaryFileName'
import type { NodeRequest } from '../node/nodeRpcError'

/**
 * A revert or a reset of the whole stack under way (createStackSnapshots.ts), kept in the data folder from before the
 * chain goes back until every part has written its state: what a restart needs to finish it (each durable part's
 * state to go back to) or to tell that the chain never went back (`token`, see STACK_MARKER).
 */
export type StackIntent = {
  kind: 'revert' | 'reset'
  /** The node method and, for a revert, the snapshot id. */
  method: string
  id?: string
  /** Written into the chain at STACK_MARKER before the chain goes back. */
  token: Hex
  /** Each durable part's state to go back to (a revert), by part name, as the part saved it (read back: parsed). */
  parts: Record<string, unknown>
}

/** An intent to write: each part's state as the JSON text it saved (put in the record as it is, not quoted again). */
export type StackIntentToWrite = Omit<StackIntent, 'parts'> & { parts: Record<string, string> }

/**
 * Where the stack marks the chain before a revert or a reset: a storage word of an address no contract uses. The word
 * is set to the intent's token before the chain goes back, through the journaled request (on disk before it is
 * answered); the revert (to a snapshot taken before it) or the reset takes it away with the rest. After a kill, the
 * chain the restart finds tells by itself whether it went back: the token still there means it did not.
 */
export const STACK_MARKER: Address = '0x00000000000000000000000000000000000057ac'
const MARKER_SLOT = '0x0'
const ZERO_WORD = `0x${'0'.repeat(64)}` as Hex

export function createIntentToken(): Hex {
  return `0x${randomBytes(32).toString('hex')}`
}

/**
 * Writes the intent record atomically (a restart finds the whole record or none): a temporary file renamed over it,
 * with no fsync. Like the write journal it is durable against a kill of the service and anvil (the page cache outlives
 * them), not a power cut, and it stays off the revert's path: the store document in it is written once more, and an
 * fsync of it doubled a per-test revert's time.
 */
export function writeStackIntent(path: string, intent: StackIntentToWrite): void {
  const { parts, ...fields } = intent
  const partsText = Object.entries(parts)
    .map(([name, text]) => `${JSON.stringify(name)}:${text}`)
    .join(',')
  const tmp = temporaryFileName(path)
  try {
    writeFileSync(tmp, `${JSON.stringify(fields).slice(0, -1)},"parts":{${partsText}}}`, { mode: 0o600 })
    renameSync(tmp, path)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw err
  }
}

/** The intent record a killed service left, or undefined. */
export function readStackIntent(path: string): StackIntent | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  const intent = JSON.parse(text) as StackIntent
  if ((intent.kind !== 'revert' && intent.kind !== 'reset') || typeof intent.token !== 'string')
    throw new Error(`${path} is not a stack intent record`)
  return intent
}

export function removeStackIntent(path: string): void {
  rmSync(path, { force: true })
}

/** Sets the marker word to `token` (ZERO_WORD clears it). */
export async function markChain(request: NodeRequest, token: Hex = ZERO_WORD): Promise<void> {
  await request('anvil_setStorageAt', [STACK_MARKER, MARKER_SLOT, token])
}

/** Whether the chain holds `token` at the marker: it has not gone back since the token was written. */
export async function chainHoldsMark(request: NodeRequest, token: Hex): Promise<boolean> {
  const word = (await request('eth_getStorageAt', [STACK_MARKER, MARKER_SLOT, 'latest'])) as string
  return BigInt(word) === BigInt(token)
}

/**
 * Test hook: `OPSTATION_TEST_KILL_AT` names a point of a revert or a reset (`stack.beforeChain`: the intent written,
 * the chain not gone back yet; `stack.afterChain`: the chain gone back, no part restored yet) where the service kills
 * itself with SIGKILL, as a crash there would, so that a test drives the restart's real recovery.
 */
export function killForTestAt(point: 'stack.beforeChain' | 'stack.afterChain'): void {
  if (process.env.OPSTATION_TEST_KILL_AT === point) process.kill(process.pid, 'SIGKILL')
}
