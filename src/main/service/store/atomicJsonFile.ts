import { readFile } from 'node:fs/promises'
import type { Adapter } from 'lowdb'
import { writeFileAtomic } from '../util/files/writeFileAtomic'

type Waiter = { resolve: () => void; reject: (err: unknown) => void }

/**
 * lowdb adapter that writes a JSON file atomically (writeFileAtomic: temp file, fsync, rename, fsync of the folder)
 * with mode 0600.
 * Concurrent writes are coalesced: while one write is on disk, later calls wait and the newest
 * document is written once for all of them, so every caller resolves only after a write that
 * contains its change has reached the disk.
 */
export class AtomicJsonFile<T> implements Adapter<T> {
  readonly filename: string
  readonly #mode: number
  readonly #serialize: (data: T) => string
  #writing = false
  #next: { data: T; waiters: Waiter[] } | undefined

  /**
   * `serialize`: the data's text, compact JSON (JSON.stringify unless given: the whole document is written on every
   * change, so indentation would cost time and disk).
   */
  constructor(filename: string, options: { mode?: number; serialize?: (data: T) => string } = {}) {
    this.filename = filename
    this.#mode = options.mode ?? 0o600
    this.#serialize = options.serialize ?? ((data) => JSON.stringify(data))
  }

  /** Reads the raw text; `null` when the file does not exist. Parsing is the caller's job. */
  async readText(): Promise<string | null> {
    try {
      return await readFile(this.filename, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  async read(): Promise<T | null> {
    const text = await this.readText()
    return text === null ? null : (JSON.parse(text) as T)
  }

  write(data: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#next) {
        this.#next.data = data
        this.#next.waiters.push({ resolve, reject })
      } else {
        this.#next = { data, waiters: [{ resolve, reject }] }
      }
      if (!this.#writing) void this.#drain()
    })
  }

  async #drain(): Promise<void> {
    this.#writing = true
    while (this.#next) {
      const { data, waiters } = this.#next
      this.#next = undefined
      try {
        await writeFileAtomic(this.filename, this.#serialize(data), { mode: this.#mode })
        for (const w of waiters) w.resolve()
      } catch (err) {
        for (const w of waiters) w.reject(err)
      }
    }
    this.#writing = false
  }
}
