import { readdir } from 'node:fs/promises'
import path from 'node:path'

/** Where one chain of a service keeps its files in the data folder. */
export type ChainFolders = {
  /** The node's files: anvil's state, its write journal, fork.json, keys.json (chain/types.ts, ChainConfig.chainDir). */
  chainDir: string
  /** The history of its mined operations (store/userOperationHistory.ts). */
  historyDir: string
}

/** The folder that holds the files of a service's chains after its first. */
const CHAINS_FOLDER = 'chains'

/**
 * The folders of a service's chain, so that two chains never write the same file: the first chain (the only one of
 * a service of one chain) keeps the data folder's `chain/` and `history/`, as a data folder has always had them, so a
 * data folder goes on from one chain to several and back; every other chain has `chains/<chainId>/chain/` and
 * `chains/<chainId>/history/`.
 */
export function chainFoldersOf(dataDir: string, chainId: number, first: boolean): ChainFolders {
  if (first) return { chainDir: path.join(dataDir, 'chain'), historyDir: path.join(dataDir, 'history') }
  const base = path.join(dataDir, CHAINS_FOLDER, String(chainId))
  return { chainDir: path.join(base, 'chain'), historyDir: path.join(base, 'history') }
}

/** The folders of the chains after the first that the data folder holds (`chains/`, each chain's and its `chain/`). */
export async function listOtherChainFolders(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, CHAINS_FOLDER)
  const entries = await readdir(root, { withFileTypes: true }).catch(() => [])
  const chains = entries
    .filter((e) => e.isDirectory() && /^\d+$/.test(e.name))
    .map((e) => path.join(root, e.name))
  return chains.length === 0 ? [] : [root, ...chains.flatMap((dir) => [dir, path.join(dir, 'chain')])]
}
