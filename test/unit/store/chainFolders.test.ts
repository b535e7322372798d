import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  assignChainFolders,
  readFolderKeeper,
  recordFolderKeeper,
} from '../../../src/main/service/store/dataFolder/chainFolders'

const own = (dataDir: string) => ({
  chainDir: path.join(dataDir, 'chain'),
  historyDir: path.join(dataDir, 'history'),
})
const other = (dataDir: string, chainId: number) => ({
  chainDir: path.join(dataDir, 'chains', String(chainId), 'chain'),
  historyDir: path.join(dataDir, 'chains', String(chainId), 'history'),
})

describe('assignChainFolders', () => {
  it("gives the data folder's own chain/ to the chain recorded as its keeper, wherever it is in the list", () => {
    const { folders, keeper } = assignChainFolders('/d', [31338, 31337], 31337)
    expect(keeper).toBe(31337)
    expect(folders.get(31337)).toEqual(own('/d'))
    expect(folders.get(31338)).toEqual(other('/d', 31338))
  })

  it('gives it to the first chain of the list in a data folder that records no keeper (written before it did)', () => {
    const { folders, keeper } = assignChainFolders('/d', [31338, 31337], undefined)
    expect(keeper).toBe(31338)
    expect(folders.get(31338)).toEqual(own('/d'))
    expect(folders.get(31337)).toEqual(other('/d', 31337))
  })

  it('gives it to none when its keeper is not in the list: no chain loads another chain’s state', () => {
    const { folders, keeper } = assignChainFolders('/d', [31338, 31339], 31337)
    expect(keeper).toBeUndefined()
    expect(folders.get(31338)).toEqual(other('/d', 31338))
    expect(folders.get(31339)).toEqual(other('/d', 31339))
  })
})

describe('the keeper record (chain/chain.json)', () => {
  let dataDir: string | undefined
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('is written once, read back, and unreadable content reads as no keeper', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-folders-'))
    expect(await readFolderKeeper(dataDir)).toBeUndefined()
    await recordFolderKeeper(dataDir, 31337)
    expect(await readFolderKeeper(dataDir)).toBe(31337)
    expect(JSON.parse(await readFile(path.join(dataDir, 'chain', 'chain.json'), 'utf8'))).toEqual({
      chainId: 31337,
    })
    await writeFile(path.join(dataDir, 'chain', 'chain.json'), '{not json')
    expect(await readFolderKeeper(dataDir)).toBeUndefined()
  })
})
