import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { AtomicJsonFile } from '../../../src/main/service/store/atomicJsonFile'
import { makeTempDir } from '../../helpers/makeTempDir'

describe('AtomicJsonFile', () => {
  it('writes mode 0600 files and leaves no temp files behind', async () => {
    const dir = await makeTempDir('atomic-')
    const file = new AtomicJsonFile<{ n: number }>(path.join(dir, 'doc.json'))
    await file.write({ n: 1 })
    expect((await stat(path.join(dir, 'doc.json'))).mode & 0o777).toBe(0o600)
    expect(await readdir(dir)).toEqual(['doc.json'])
  })

  it('coalesces concurrent writes: every caller resolves after a write that holds its change', async () => {
    const dir = await makeTempDir('atomic-')
    const filename = path.join(dir, 'doc.json')
    const file = new AtomicJsonFile<{ items: number[] }>(filename)
    const doc = { items: [] as number[] }
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        doc.items.push(i)
        await file.write(doc)
        const onDisk = JSON.parse(await readFile(filename, 'utf8')) as { items: number[] }
        expect(onDisk.items).toContain(i)
      }),
    )
    expect(JSON.parse(await readFile(filename, 'utf8')).items).toHaveLength(50)
  })
})
