import { Readable } from 'node:stream'
import type {
  FileSystemOperations,
  FileSystemOperationsSync,
} from '../../../src/main/service/util/files/fileSystemOperations'

/** Thrown by an operation the power cut came before. */
export class PowerCut extends Error {
  constructor(step: number) {
    super(`power cut before step ${step}`)
  }
}

type Inode = { cached: Buffer; onDisk: Buffer }
type Names = Map<string, number>

/**
 * An in-memory file system that remembers what a power cut may keep, for tests of a write sequence. A file's data
 * reaches the disk only at its fsync (until then the disk may hold the old data or the new: a new file may be empty);
 * a folder's names (create, rename, remove) reach the disk only at the folder's fsync, in order (until then the disk
 * holds any prefix of the changes). `cutBefore(n)` makes the n-th operation (from 0) and every later one throw
 * PowerCut; `afterPowerCut()` lists every file set the disk may then hold. `steps` records the operations, in order.
 */
export function createPowerCutFileSystem(files: Record<string, string>) {
  const inodes: Inode[] = []
  const names: Names = new Map()
  let namesOnDisk: Names = new Map()
  /** Name changes not on the disk yet, in order. */
  let pending: Array<(n: Names) => void> = []
  const steps: string[] = []
  let cut = Number.POSITIVE_INFINITY

  for (const [name, text] of Object.entries(files)) {
    inodes.push({ cached: Buffer.from(text), onDisk: Buffer.from(text) })
    names.set(name, inodes.length - 1)
  }
  namesOnDisk = new Map(names)

  const step = (label: string) => {
    if (steps.length >= cut) throw new PowerCut(steps.length)
    steps.push(label)
  }
  const inodeOf = (name: string): Inode => {
    const id = names.get(name)
    if (id === undefined) throw Object.assign(new Error(`ENOENT: ${name}`), { code: 'ENOENT' })
    return inodes[id] as Inode
  }
  const changeNames = (change: (n: Names) => void) => {
    change(names)
    pending.push(change)
  }
  const create = (name: string, data: Buffer) => {
    const id = names.get(name)
    if (id !== undefined) {
      ;(inodes[id] as Inode).cached = data
      return
    }
    inodes.push({ cached: data, onDisk: Buffer.alloc(0) })
    const created = inodes.length - 1
    changeNames((n) => n.set(name, created))
  }

  const sync: FileSystemOperationsSync = {
    writeFile: (path, data) => {
      step(`writeFile ${path}`)
      create(path, Buffer.from(data))
    },
    syncFile: (path) => {
      step(`syncFile ${path}`)
      const inode = inodeOf(path)
      inode.onDisk = inode.cached
    },
    rename: (from, to) => {
      step(`rename ${from} ${to}`)
      const id = names.get(from)
      if (id === undefined) throw Object.assign(new Error(`ENOENT: ${from}`), { code: 'ENOENT' })
      changeNames((n) => {
        n.delete(from)
        n.set(to, id)
      })
    },
    syncFolder: (path) => {
      step(`syncFolder ${path}`)
      namesOnDisk = new Map(names)
      pending = []
    },
    remove: (path) => {
      step(`remove ${path}`)
      if (names.has(path)) changeNames((n) => n.delete(path))
    },
  }

  const readAll = async (stream: Readable): Promise<Buffer> => {
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(Buffer.from(chunk))
    return Buffer.concat(chunks)
  }
  const operations: FileSystemOperations = {
    writeFile: async (path, data, mode) => {
      const bytes = data instanceof Readable ? await readAll(data) : data
      sync.writeFile(path, bytes, mode)
    },
    copyFile: async (from, to) => {
      const source = inodeOf(from)
      step(`copyFile ${from} ${to}`)
      create(to, source.cached)
    },
    syncFile: async (path) => sync.syncFile(path),
    rename: async (from, to) => sync.rename(from, to),
    syncFolder: async (path) => sync.syncFolder(path),
    remove: async (path) => sync.remove(path),
  }

  return {
    operations,
    sync,
    steps,
    /** Operation `n` (from 0) and every later one throw PowerCut. */
    cutBefore(n: number) {
      cut = n
    },
    /** What the running system sees. */
    read(name: string): string | undefined {
      const id = names.get(name)
      return id === undefined ? undefined : (inodes[id] as Inode).cached.toString()
    },
    /** Every set of files (name → content) the disk may hold after a power cut now. */
    afterPowerCut(): Array<Record<string, string>> {
      const outcomes: Array<Record<string, string>> = []
      for (let kept = 0; kept <= pending.length; kept++) {
        const onDisk = new Map(namesOnDisk)
        for (const change of pending.slice(0, kept)) change(onDisk)
        const ids = [...new Set(onDisk.values())]
        const unsynced = ids.filter(
          (id) => !(inodes[id] as Inode).cached.equals((inodes[id] as Inode).onDisk),
        )
        // Each file whose data is not synced may come back with its new data or its old (a new file: empty).
        for (let mask = 0; mask < 2 ** unsynced.length; mask++) {
          const outcome: Record<string, string> = {}
          for (const [name, id] of onDisk) {
            const inode = inodes[id] as Inode
            const synced = unsynced.indexOf(id) === -1 || (mask & (1 << unsynced.indexOf(id))) !== 0
            outcome[name] = (synced ? inode.cached : inode.onDisk).toString()
          }
          outcomes.push(outcome)
        }
      }
      return outcomes
    },
  }
}
