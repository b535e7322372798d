import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FileSystemOperations } from '../../../src/main/service/util/files/fileSystemOperations'
import { readFileOrPrevious } from '../../../src/main/service/util/files/readFileOrPrevious'
import {
  previousCopyPath,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../../../src/main/service/util/files/writeFileAtomic'
import { makeTempDir } from '../../helpers/makeTempDir'
import { createPowerCutFileSystem, PowerCut } from './powerCutFileSystem'

const folder = '/data/chain'
const keys = `${folder}/keys.json`
const previous = previousCopyPath(keys)
const OLD = '{"version":1,"chains":{"31337":{"executor":"0xold"}}}\n'
const NEW = '{"version":1,"chains":{"31337":{"executor":"0xold","paymasterIds":{"0xa":"0xnew"}}}}\n'

/** The four steps that replace keys.json. */
const REPLACE_KEYS = [
  'writeFile <tmp of keys.json>',
  'syncFile <tmp of keys.json>',
  'rename <tmp of keys.json> /data/chain/keys.json',
  'syncFolder /data/chain',
]

/** The steps with the temporary files' random names replaced by `<tmp of NAME>`. */
function named(steps: readonly string[]): string[] {
  return steps.map((s) => s.replace(/\/data\/chain\/\.([^ ]+?)\.\d+\.[0-9a-f]+\.tmp/g, '<tmp of $1>'))
}

type Writer = (fs: ReturnType<typeof createPowerCutFileSystem>) => Promise<void>
const writeKeepingPrevious: Writer = (fs) =>
  writeFileAtomic(keys, NEW, { keepPrevious: true, fileSystem: fs.operations })
const writePlain: Writer = (fs) => writeFileAtomic(keys, NEW, { fileSystem: fs.operations })
const writeSync: Writer = async (fs) => writeFileAtomicSync(keys, NEW, { fileSystem: fs.sync })

/**
 * Runs `write` over a key file holding OLD, cut by a power cut before each of its steps in turn (and once after
 * the last), and returns every file set the disk may hold afterwards, with the step the cut came before.
 */
async function outcomesOfPowerCuts(
  write: Writer,
  wrap?: (ops: FileSystemOperations) => FileSystemOperations,
) {
  const complete = createPowerCutFileSystem({ [keys]: OLD })
  await write(complete)
  const outcomes: Array<{ cutBefore: string; files: Record<string, string> }> = []
  for (let n = 0; n <= complete.steps.length; n++) {
    const fs = createPowerCutFileSystem({ [keys]: OLD })
    if (wrap) fs.operations = wrap(fs.operations)
    fs.cutBefore(n)
    await write(fs).catch((err: unknown) => {
      if (!(err instanceof PowerCut)) throw err
    })
    const cutBefore = named(complete.steps)[n] ?? 'nothing (after the last step)'
    for (const files of fs.afterPowerCut()) outcomes.push({ cutBefore, files })
  }
  return outcomes
}

describe('writeFileAtomic under a power cut', () => {
  it.each([
    ['writeFileAtomic', writePlain],
    ['writeFileAtomicSync', writeSync],
  ])(
    '%s writes the temporary file, fsyncs it, renames it over the file, then fsyncs the folder',
    async (_, write) => {
      const fs = createPowerCutFileSystem({ [keys]: OLD })
      await write(fs)
      expect(named(fs.steps)).toEqual(REPLACE_KEYS)
      expect(fs.read(keys)).toBe(NEW)
    },
  )

  it('with keepPrevious, first puts the file it replaces on the disk as keys.json.previous, by the same sequence', async () => {
    const fs = createPowerCutFileSystem({ [keys]: OLD })
    await writeKeepingPrevious(fs)
    expect(named(fs.steps)).toEqual([
      'copyFile /data/chain/keys.json <tmp of keys.json.previous>',
      'syncFile <tmp of keys.json.previous>',
      'rename <tmp of keys.json.previous> /data/chain/keys.json.previous',
      'syncFolder /data/chain',
      ...REPLACE_KEYS,
    ])
    expect(fs.read(previous)).toBe(OLD)
    expect(fs.read(keys)).toBe(NEW)
  })

  it.each([
    ['writeFileAtomic', writePlain],
    ['writeFileAtomic with keepPrevious', writeKeepingPrevious],
    ['writeFileAtomicSync', writeSync],
  ])(
    '%s: a power cut at any step leaves keys.json old or new and complete, never empty or missing',
    async (_, write) => {
      const outcomes = await outcomesOfPowerCuts(write)
      // A cut before each of the four (or eight) steps and one after the last, each with its possible disks.
      expect(new Set(outcomes.map(({ cutBefore }) => cutBefore)).size).toBeGreaterThanOrEqual(5)
      for (const { cutBefore, files } of outcomes) {
        expect([OLD, NEW], `cut before ${cutBefore}: ${JSON.stringify(files)}`).toContain(files[keys])
        // The kept copy, where there is one, is the old file, whole.
        if (files[previous] !== undefined) expect(files[previous], `cut before ${cutBefore}`).toBe(OLD)
      }
      // Both ends are reached: the cut before the first step keeps OLD, the one after the last keeps NEW.
      expect(new Set(outcomes.map(({ files }) => files[keys]))).toEqual(new Set([OLD, NEW]))
    },
  )

  it('the keys read back after any power cut (through the loader, from a real folder) are the old or the new', async () => {
    const outcomes = await outcomesOfPowerCuts(writeKeepingPrevious)
    const root = await makeTempDir('power-cut-')
    let i = 0
    for (const { cutBefore, files } of outcomes) {
      const dir = path.join(root, String(i++))
      await mkdir(dir)
      for (const [name, text] of Object.entries(files))
        await writeFile(path.join(dir, path.basename(name)), text)
      const read = await readFileOrPrevious(
        path.join(dir, 'keys.json'),
        (text) => JSON.parse(text) as unknown,
      )
      expect(read.from, `cut before ${cutBefore}`).toBe('file')
      expect([JSON.parse(OLD), JSON.parse(NEW)]).toContainEqual((read as { value: unknown }).value)
    }
  })

  it('without the two fsyncs (the writer this one replaced) the same cuts can leave keys.json empty', async () => {
    const outcomes = await outcomesOfPowerCuts(writePlain, (ops) => ({
      ...ops,
      syncFile: async () => {},
      syncFolder: async () => {},
    }))
    expect(outcomes.some(({ files }) => files[keys] === '')).toBe(true)
  })
})
