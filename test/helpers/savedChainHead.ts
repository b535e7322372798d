import { open } from 'node:fs/promises'

/**
 * The newest block in the embedded chain's saved state (anvil's dump, data folder's chain/anvil-state.json), or -1n
 * while there is none. The dump begins with that block (`{"block":{"number":"0x…"`), so only its first bytes are
 * read: the whole file is megabytes, too much to parse on every look of a wait.
 */
export async function readSavedChainHead(statePath: string): Promise<bigint> {
  const head = Buffer.alloc(200)
  const file = await open(statePath).catch(() => undefined)
  if (!file) return -1n
  try {
    await file.read(head, 0, head.length, 0)
  } finally {
    await file.close()
  }
  const number = /^\{"block":\{"number":"(0x[0-9a-f]+)"/.exec(head.toString('utf8'))?.[1]
  return number === undefined ? -1n : BigInt(number)
}
