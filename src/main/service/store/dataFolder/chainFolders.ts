import { mkdir, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../util/files/writeFileAtomic'
import { parseJsonOrUndefined } from './readDataFile'

/** Where one chain of a service keeps its files in the data folder. */
export type ChainFolders = {
  /** The node's files: anvil's state, its write journal, fork.json, keys.json (chain/types.ts, ChainConfig.chainDir). */
  chainDir: string
  /** The history of its mined operations (store/userOperationHistory.ts). */
  historyDir: string
}

/** The folder that holds the files of every chain but the one that keeps the data folder's own. */
const CHAINS_FOLDER = 'chains'

/** Names the chain whose files the data folder's own `chain/` and `history/` hold: `chain/chain.json`. */
const KEEPER_FILE = 'chain.json'

/**
 * The folders of each of a service's chains, so that two chains never write the same file and a chain always finds
 * its own: the chain that `chain/chain.json` names keeps the data folder's `chain/` and `history/`, as a data folder
 * of one chain has always had them (a folder written before the file existed: the first chain of the list); every
 * other chain has `chains/<chainId>/chain/` and `chains/<chainId>/history/`. So the order of `--chains` can change on
 * a data folder, and a chain can leave the list and come back, without one chain's state loading into another's node.
 * `keeper` is the chain that keeps the data folder's own (record it with recordFolderKeeper), if any of them does.
 */
export function assignChainFolders(
  dataDir: string,
  chainIds: readonly number[],
  recordedKeeper: number | undefined,
): { folders: Map<number, ChainFolders>; keeper: number | undefined } {
  const keeper = recordedKeeper === undefined ? chainIds[0] : chainIds.find((id) => id === recordedKeeper)
  const folders = new Map<number, ChainFolders>()
  for (const chainId of chainIds) {
    const base = chainId === keeper ? dataDir : path.join(dataDir, CHAINS_FOLDER, String(chainId))
    folders.set(chainId, { chainDir: path.join(base, 'chain'), historyDir: path.join(base, 'history') })
  }
  return { folders, keeper }
}

/** The chain whose files the data folder's own `chain/` holds, as `chain/chain.json` names it; undefined if none. */
export async function readFolderKeeper(dataDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, 'chain', KEEPER_FILE), 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  const parsed = z.object({ chainId: z.number().int().positive() }).safeParse(parseJsonOrUndefined(text))
  return parsed.success ? parsed.data.chainId : undefined
}

/** Records (`chain/chain.json`) that the data folder's own `chain/` and `history/` hold the files of `chainId`. */
export async function recordFolderKeeper(dataDir: string, chainId: number): Promise<void> {
  if ((await readFolderKeeper(dataDir)) === chainId) return
  const chainDir = path.join(dataDir, 'chain')
  await mkdir(chainDir, { recursive: true, mode: 0o700 })
  await writeFileAtomic(path.join(chainDir, KEEPER_FILE), `${JSON.stringify({ chainId })}\n`)
}

/** The folders of the chains other than the data folder's own chain that the data folder holds (`chains/`, each chain's and its `chain/`). */
export async function listOtherChainFolders(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, CHAINS_FOLDER)
  const entries = await readdir(root, { withFileTypes: true }).catch(() => [])
  const chains = entries
    .filter((e) => e.isDirectory() && /^\d+$/.test(e.name))
    .map((e) => path.join(root, e.name))
  return chains.length === 0 ? [] : [root, ...chains.flatMap((dir) => [dir, path.join(dir, 'chain')])]
}
